import type { Article } from '../../schema/Article'
import { content } from './content'

// The articles of the build under test, and what the lists are meant to show of them:
// Insights features the newest `featured` articles (2) and lists the newest of the rest (6);
// the blog lists the newest article of each service category.
export const articles: Article[] = content.articles
export const featured = articles.filter((a) => a.featured).slice(0, 2)
export const latest = articles.filter((a) => !featured.includes(a)).slice(0, 6)
export const blogList = content.services.flatMap((c) => articles.find((a) => a.category === c.slug) ?? [])

export const authorOf = (a: Article) => {
  const author = content.authors[a.author]
  if (!author) throw new Error(`no author ${a.author}`)
  return author
}
export const categoryName = (slug: string) => content.services.find((c) => c.slug === slug)?.name ?? slug
export const readTime = (a: Article) => `${a.read_time} ${content.pages.insights.article.read_time_suffix}`
export const articlePath = (a: Article) => `/insights/${a.slug}`
export const typeLabel = (a: Article) => {
  const labels = content.pages.insights.latest.type_labels
  return { article: labels.article, 'case-study': labels.case_study, technical: labels.technical, whitepaper: labels.whitepaper }[a.type]
}
