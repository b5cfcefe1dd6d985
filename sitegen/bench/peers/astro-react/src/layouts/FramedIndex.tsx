import { ArticleIndex } from '../components/ArticleIndex'
import { Frame } from '../components/Frame'
import type { ArticleSummary, Authors, Site } from '../components/model'

/** The index in the frame, composed in React so that Astro renders it as one component. */
export default function FramedIndex({ site, authors, articles }: { site: Site; authors: Authors; articles: ArticleSummary[] }) {
  return (
    <Frame site={site}>
      <ArticleIndex authors={authors} articles={articles} />
    </Frame>
  )
}
