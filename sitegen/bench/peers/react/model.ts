// What the React peers' components are given, and the few rules they share with sitegen's
// article pages: the order of articles, the related articles, the reading time, the dates.

export type Link = { label: string; href: string }

/** `site.json`, written by peers.rs from `content/site.yaml`, `content/services/` and `content/pages/insights.yaml`. */
export type Site = {
  name: string
  base_url: string
  home_label: string
  nav: Link[]
  services_menu: { label: string; links: Link[]; view_all: Link }
  cta: Link
  mobile_links: Link[]
  description: string
  footer: { title: string; links: Link[] }[]
  social_label: string
  social: { name: string; icon: string }[]
  copyright: string
  ui: { skip_to_content: string; open_menu: string; close_menu: string; main_nav_label: string; mobile_nav_label: string; footer_nav_label: string }
  article: { read_time_suffix: string; toc_label: string; related_title: string; cta: { title: string; lead: string; actions: Link[] } }
  /** Each category's name by its slug, each article type's badge text by the type. */
  categories: Record<string, string>
  type_labels: Record<string, string>
}

/** `authors.json`, from `content/authors.yaml`. */
export type Authors = Record<string, { name: string; role: string; avatar: string }>

/** An article's front matter and the length of its body. */
export type ArticleSummary = {
  slug: string
  title: string
  excerpt: string
  author: string
  date: Date
  category: string
  type: string
  image: string
  image_alt: string
  words: number
}

/** The front matter fields every peer reads of an article, as it gives them. */
export type FrontMatter = Omit<ArticleSummary, 'slug' | 'words'>

/** The summary of the article `slug`, from its front matter and its Markdown body. */
export function summaryOf(slug: string, data: FrontMatter, body: string): ArticleSummary {
  const { title, excerpt, author, date, category, type, image, image_alt } = data
  return { slug, title, excerpt, author, date, category, type, image, image_alt, words: wordCount(body) }
}

/** A heading of an article's body, for the table of contents. */
export type Heading = { id: string; text: string; level: number }

/** An article has a table of contents when it has this many `##`/`###` headings or more. */
export const TOC_MIN_HEADINGS = 3

/** Newest first, then by slug, as sitegen orders articles. */
export function newestFirst(a: ArticleSummary, b: ArticleSummary): number {
  return b.date.valueOf() - a.date.valueOf() || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)
}

/** The articles of each category, in the order of `sorted`. */
export function byCategory(sorted: ArticleSummary[]): Map<string, ArticleSummary[]> {
  const categories = new Map<string, ArticleSummary[]>()
  for (const article of sorted) {
    const list = categories.get(article.category) ?? []
    list.push(article)
    categories.set(article.category, list)
  }
  return categories
}

/** The three newest other articles of the article's category. */
export function relatedTo(article: ArticleSummary, categories: Map<string, ArticleSummary[]>): ArticleSummary[] {
  const related: ArticleSummary[] = []
  for (const other of categories.get(article.category) ?? []) {
    if (related.length === 3) break
    if (other.slug !== article.slug) related.push(other)
  }
  return related
}

/** The words of a Markdown body: what has a letter or a digit, so not `##` or a list's `-`. */
export function wordCount(markdown: string): number {
  return markdown.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}

/** Minutes at 200 words a minute, rounded up, at least one. */
export function readTime(words: number): number {
  return Math.max(1, Math.ceil(words / 200))
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** `March 8, 2024` */
export function displayDate(date: Date): string {
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
}

/** `2024-03-08` */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10)
}

export function articlePath(slug: string): string {
  return `/insights/${slug}`
}

/** The page's address with its trailing slash, as sitegen's canonical links have it. */
export function articleUrl(site: Site, slug: string): string {
  return `${site.base_url}${articlePath(slug)}/`
}

/** The schema.org Article sitegen puts in an article page's head. */
export function articleJsonLd(site: Site, authors: Authors, article: ArticleSummary): string {
  const author = authors[article.author]
  const url = articleUrl(site, article.slug)
  return JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: article.title,
    description: article.excerpt,
    image: `${site.base_url}${article.image}`,
    datePublished: isoDate(article.date),
    dateModified: isoDate(article.date),
    author: { '@type': 'Person', name: author.name, jobTitle: author.role },
    publisher: { '@type': 'Organization', name: site.name },
    mainEntityOfPage: url,
    articleSection: site.categories[article.category],
  })
}
