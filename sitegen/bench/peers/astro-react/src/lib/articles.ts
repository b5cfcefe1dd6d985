// The articles of the content collection (rendered from Markdown by Astro's own pipeline when
// the collection loads), as the React components take them.
import { type CollectionEntry, getCollection } from 'astro:content'
import { type ArticleSummary, type Heading, byCategory, newestFirst, relatedTo, summaryOf } from '../components/model'

export type Article = { summary: ArticleSummary; html: string; toc: Heading[]; related: ArticleSummary[] }

function summary(entry: CollectionEntry<'articles'>): ArticleSummary {
  return summaryOf(entry.id, entry.data, entry.body ?? '')
}

/** Every article, newest first, with its body and its related articles. */
export async function articles(): Promise<Article[]> {
  const entries = await getCollection('articles')
  const summaries = new Map(entries.map((entry) => [entry, summary(entry)]))
  const categories = byCategory([...summaries.values()].sort(newestFirst))
  return entries
    .map((entry) => {
      const own = summaries.get(entry)!
      return {
        summary: own,
        html: entry.rendered?.html ?? '',
        toc: (entry.rendered?.metadata?.headings ?? [])
          .filter((h) => h.depth === 2 || h.depth === 3)
          .map((h) => ({ id: h.slug, text: h.text, level: h.depth })),
        related: relatedTo(own, categories),
      }
    })
    .sort((a, b) => newestFirst(a.summary, b.summary))
}
