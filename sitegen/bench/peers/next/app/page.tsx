import { ArticleIndex } from '../components/ArticleIndex'
import type { Authors } from '../components/model'
import authors from '../data/authors.json'
import { articles } from '../lib/articles'

export const metadata = { title: 'Insights' }

export default function Home() {
  return <ArticleIndex authors={authors as Authors} articles={articles()} />
}
