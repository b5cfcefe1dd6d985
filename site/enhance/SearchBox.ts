/**
 * The Insights search box's engine, loaded by ArticleSearch.ts the first time the box gets
 * focus: results as the visitor types, from the static index sitegen builds
 * (`search-index.json`, see sitegen/src/search.rs), fetched once. Markup, inside the root that names `article-search` (`data-index` = the index URL,
 * `data-results-label` = `{count} results`, `data-no-results`):
 * - `[data-search-input]`: the box;
 * - `[data-search-results]`: the panel, shown while the box has a query;
 * - `[data-search-count]`: a live region counting the results;
 * - `[data-search-list]`: the result links.
 * A query's words are split like the index's (lowercased runs of letters and digits); every
 * word must match, the last one as a prefix (the visitor is still typing it).
 */
type Index = { docs: { url: string; title: string; excerpt: string; author: string }[]; words: Record<string, [number, number][]> }

const MAX_RESULTS = 8

export function queryWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

/** Documents matching every word of `query`, best first. */
export function searchIndex(index: Index, query: string): number[] {
  const words = queryWords(query)
  if (words.length === 0) return []
  const keys = Object.keys(index.words)
  let scores: Map<number, number> | null = null
  words.forEach((word, i) => {
    const last = i === words.length - 1
    const matches = last ? keys.filter((k) => k.startsWith(word)) : keys.filter((k) => k === word)
    const found = new Map<number, number>()
    for (const key of matches) {
      for (const [doc, weight] of index.words[key] ?? []) {
        // An exact word weighs more than a word it only begins.
        found.set(doc, (found.get(doc) ?? 0) + (key === word ? weight * 2 : weight))
      }
    }
    scores = scores === null ? found : new Map([...scores].filter(([doc]) => found.has(doc)).map(([doc, s]) => [doc, s + (found.get(doc) ?? 0)]))
  })
  return [...(scores ?? new Map<number, number>())].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([doc]) => doc)
}

export default class SearchBox {
  private index: Promise<Index> | null = null
  private readonly input: HTMLInputElement
  private readonly panel: HTMLElement
  private readonly count: HTMLElement
  private readonly list: HTMLElement

  constructor(private readonly root: HTMLElement) {
    const find = <T extends HTMLElement>(selector: string) => {
      const el = root.querySelector<T>(selector)
      if (!el) throw new Error(`the search needs ${selector}`)
      return el
    }
    this.input = find<HTMLInputElement>('[data-search-input]')
    this.panel = find('[data-search-results]')
    this.count = find('[data-search-count]')
    this.list = find('[data-search-list]')
    void this.load().then(() => this.update())
    this.input.addEventListener('input', () => void this.update())
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        this.input.value = ''
        void this.update()
      } else if (event.key === 'ArrowDown') {
        const first = this.list.querySelector<HTMLAnchorElement>('a')
        if (first) {
          event.preventDefault()
          first.focus()
        }
      }
    })
    this.list.addEventListener('keydown', (event) => {
      const links = [...this.list.querySelectorAll<HTMLAnchorElement>('a')]
      const at = links.indexOf(document.activeElement as HTMLAnchorElement)
      if (at < 0) return
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        const next = at + (event.key === 'ArrowDown' ? 1 : -1)
        if (next < 0) this.input.focus()
        else links[Math.min(next, links.length - 1)]?.focus()
      } else if (event.key === 'Escape') {
        this.input.focus()
      }
    })
  }

  private load(): Promise<Index> {
    this.index ??= fetch(this.root.dataset.index ?? '').then((response) => {
      if (!response.ok) throw new Error(`search index: HTTP ${response.status}`)
      return response.json() as Promise<Index>
    })
    return this.index
  }

  private async update() {
    const query = this.input.value
    if (queryWords(query).length === 0) {
      this.panel.hidden = true
      this.list.replaceChildren()
      this.count.textContent = ''
      return
    }
    const index = await this.load()
    if (this.input.value !== query) return
    const found = searchIndex(index, query)
    this.panel.hidden = false
    this.count.textContent =
      found.length === 0
        ? (this.root.dataset.noResults ?? '')
        : (this.root.dataset.resultsLabel ?? '{count}').replace('{count}', String(found.length))
    this.list.replaceChildren(
      ...found.slice(0, MAX_RESULTS).map((i) => {
        const doc = index.docs[i]
        const item = document.createElement('li')
        const link = document.createElement('a')
        link.href = doc?.url ?? '#'
        link.className = 'block rounded-md px-2 py-3 hover:bg-ink-50 focus:bg-ink-50'
        const title = document.createElement('span')
        title.className = 'block font-semibold text-ink-950'
        title.textContent = doc?.title ?? ''
        const meta = document.createElement('span')
        meta.className = 'mt-1 block text-sm text-ink-600'
        meta.textContent = `${doc?.author ?? ''} · ${doc?.excerpt ?? ''}`
        link.append(title, meta)
        item.append(link)
        return item
      }),
    )
  }
}
