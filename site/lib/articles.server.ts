// The articles as the pages show them: cards for the lists, and the rules that pick which
// articles each list shows. Every list reads the one collection (content/articles/).
import { closeSync, openSync, readSync } from 'node:fs'
import type { ArticleCardData } from '../components/insights/articleCard'
import type { Article } from '../schema/Article'
import { loadContent, pathOf } from './content.server'

/** How many articles the Insights page shows among the featured and the latest. */
export const FEATURED_COUNT = 2
export const LATEST_COUNT = 6
/**
 * How many of the latest articles the Insights page carries in all, for its filter to narrow:
 * enough that every category and type has a few, while the page stays the same size however
 * many articles there are. Older articles are listed on their category's pages and found by
 * the search.
 */
export const LATEST_MAX = 48

/** The author an article names, from the authors file. */
export function authorOf(article: Article) {
  const author = loadContent().authors[article.author]
  if (!author) throw new Error(`The content has no author ${article.author}`)
  return author
}

function categoryName(slug: string): string {
  const found = loadContent().services.find((c) => c.slug === slug)
  if (!found) throw new Error(`The content has no service category ${slug}`)
  return found.name
}

/** `6 min read`, with the suffix from insights.yaml. */
export function readTime(minutes: number): string {
  return `${minutes} ${loadContent().pages.insights.article.read_time_suffix}`
}

/** The badge text of an article type, from insights.yaml. */
export function typeLabel(type: Article['type']): string {
  const labels = loadContent().pages.insights.latest.type_labels
  const byType: Record<Article['type'], string> = {
    article: labels.article,
    'case-study': labels.case_study,
    technical: labels.technical,
    whitepaper: labels.whitepaper,
  }
  return byType[type]
}

export function cardOf(article: Article): ArticleCardData {
  const author = authorOf(article)
  return {
    slug: article.slug,
    href: pathOf('article', { slug: article.slug }),
    title: article.title,
    excerpt: article.excerpt,
    date: article.date_display,
    iso_date: article.date,
    read_time: readTime(article.read_time),
    category: categoryName(article.category),
    category_slug: article.category,
    type: article.type,
    type_label: typeLabel(article.type),
    image: article.image,
    image_alt: article.image_alt,
    author: author.name,
    role: author.role,
    avatar: author.avatar,
    avatar_alt: author.avatar_alt,
    featured: article.featured,
  }
}

/** Every article, newest first. */
export function allArticles(): Article[] {
  return loadContent().articles
}

// The articles indexed once per content, by slug and by category: a site of thousands of
// articles looks one up, and its category's, for every article page.
interface ArticleIndex {
  articles: Article[]
  bySlug: Map<string, Article>
  byCategory: Map<string, Article[]>
  /** Each article's place in `articles`, for its body in the bodies file. */
  position: Map<Article, number>
  /** The bodies file (`article_bodies`), opened on first use. */
  bodies?: number
}

let indexed: ArticleIndex | undefined

function articleIndex(): ArticleIndex {
  const articles = allArticles()
  if (indexed?.articles === articles) return indexed
  if (indexed?.bodies !== undefined) closeSync(indexed.bodies)
  const index: ArticleIndex = { articles, bySlug: new Map(), byCategory: new Map(), position: new Map() }
  for (const [i, article] of articles.entries()) {
    index.position.set(article, i)
    index.bySlug.set(article.slug, article)
    const list = index.byCategory.get(article.category) ?? []
    list.push(article)
    index.byCategory.set(article.category, list)
  }
  indexed = index
  return index
}

let digestsForBodies = false

/**
 * Runs `f` with every article body read from the bodies file standing for its digest
 * (`article_bodies.digests`, sitegen's hash of it): hashing what each page renders
 * (render/entry.server.ts) then tells a changed body without reading every body of the site.
 */
export function withBodyDigests<T>(f: () => T): T {
  digestsForBodies = true
  try {
    return f()
  } finally {
    digestsForBodies = false
  }
}

/** What an article page shows of its body: the body as HTML and its table of contents. */
export type ArticleBody = Pick<Article, 'html' | 'toc'>

/**
 * The article's body as HTML, with its table of contents. In a build these are not in the content
 * the render worker parses but in a file beside it (`article_bodies`, see sitegen's build.rs),
 * read here for the page that shows them; `sitegen dev` and `sitegen export` keep them in the
 * article. While a page's inputs are hashed, the body's digest stands for both.
 */
export function articleBody(article: Article): ArticleBody {
  const bodies = loadContent().article_bodies
  if (!bodies) return { html: article.html, toc: article.toc }
  const index = articleIndex()
  const position = index.position.get(article) ?? -1
  const span = bodies.spans[position]
  if (!span) throw new Error(`The bodies file has no body for the article ${article.slug}`)
  if (digestsForBodies) return { html: `sitegen-body:${bodies.digests[position]}`, toc: [] }
  const [offset, tocLength, htmlLength] = span
  const length = tocLength + htmlLength
  index.bodies ??= openSync(bodies.file, 'r')
  const buffer = Buffer.alloc(length)
  let read = 0
  while (read < length) {
    const n = readSync(index.bodies, buffer, read, length - read, offset + read)
    if (n === 0) throw new Error(`${bodies.file} ends before the body of the article ${article.slug}`)
    read += n
  }
  return {
    toc: JSON.parse(buffer.toString('utf8', 0, tocLength)) as Article['toc'],
    html: buffer.toString('utf8', tocLength),
  }
}

/** The article `slug`, if the content has it. */
export function articleBySlug(slug: string): Article | undefined {
  return articleIndex().bySlug.get(slug)
}

/** Insights: the newest articles flagged `featured`. */
export function featuredArticles(): Article[] {
  return allArticles().filter((a) => a.featured).slice(0, FEATURED_COUNT)
}

/**
 * Insights: the newest LATEST_MAX articles not among the featured ones, newest first. The page
 * shows the first LATEST_COUNT; the others appear only while the filter narrows the list.
 */
export function latestArticles(): Article[] {
  const featured = new Set(featuredArticles().map((a) => a.slug))
  const latest: Article[] = []
  for (const article of allArticles()) {
    if (latest.length === LATEST_MAX) break
    if (!featured.has(article.slug)) latest.push(article)
  }
  return latest
}

/** The blog list: the newest article of each service category, in category order. */
export function blogArticles(): Article[] {
  return loadContent().services.flatMap((c) => allArticles().find((a) => a.category === c.slug) ?? [])
}

/** The articles of the category `slug`, newest first. */
export function categoryArticles(slug: string): Article[] {
  return articleIndex().byCategory.get(slug) ?? []
}

/** The other articles of an article's category, newest first. */
export function relatedArticles(article: Article, count = 3): Article[] {
  const related: Article[] = []
  for (const other of articleIndex().byCategory.get(article.category) ?? []) {
    if (related.length === count) break
    if (other.slug !== article.slug) related.push(other)
  }
  return related
}

/** The filter's choices: each category with its listing page, each type with its label. */
export function filterChoices() {
  const { services } = loadContent()
  return {
    categories: services.map((c) => ({
      value: c.slug,
      label: c.name,
      href: pathOf('insights-category', { category: c.slug, page: 1 }),
    })),
    types: (['article', 'case-study', 'technical', 'whitepaper'] as const).map((value) => ({
      value,
      label: typeLabel(value),
    })),
  }
}
