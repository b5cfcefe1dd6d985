// The articles under content/articles/: front matter read with gray-matter, bodies rendered
// with marked, each heading given an id (as sitegen's) for the table of contents.
import fs from 'node:fs'
import path from 'node:path'
import matter from 'gray-matter'
import { Marked } from 'marked'
import { type ArticleSummary, type FrontMatter, type Heading, byCategory, newestFirst, relatedTo, summaryOf } from '../components/model'

type Article = ArticleSummary & { body: string }

const DIR = path.join(process.cwd(), 'content/articles')

let loaded: { all: Article[]; bySlug: Map<string, Article>; byCategory: Map<string, ArticleSummary[]> } | undefined

/** Every article, newest first, read once per process. */
function index() {
  if (!loaded) {
    const all = fs
      .readdirSync(DIR)
      .filter((name) => name.endsWith('.md'))
      .map((name): Article => {
        const { data, content } = matter(fs.readFileSync(path.join(DIR, name), 'utf8'))
        return { ...summaryOf(name.slice(0, -'.md'.length), data as FrontMatter, content), body: content }
      })
      .sort(newestFirst)
    loaded = { all, bySlug: new Map(all.map((a) => [a.slug, a])), byCategory: byCategory(all) }
  }
  return loaded
}

export function articles(): Article[] {
  return index().all
}

export function article(slug: string): Article | undefined {
  return index().bySlug.get(slug)
}

export function related(article: ArticleSummary): ArticleSummary[] {
  return relatedTo(article, index().byCategory)
}

/** The words of `text`, lower-cased and joined by hyphens, as sitegen's heading ids. */
function slugify(text: string): string {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join('-') || 'section'
}

/** The body as HTML, and its second- and third-level headings. */
export function render(markdown: string): { html: string; toc: Heading[] } {
  const toc: Heading[] = []
  const seen = new Map<string, number>()
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth }) {
        const text = this.parser.parseInline(tokens, this.parser.textRenderer)
        const base = slugify(text)
        const count = (seen.get(base) ?? 0) + 1
        seen.set(base, count)
        const id = count === 1 ? base : `${base}-${count}`
        if (depth === 2 || depth === 3) toc.push({ id, text, level: depth })
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`
      },
    },
  })
  return { html: marked.parse(markdown, { async: false }), toc }
}
