/**
 * The Insights search box's engine, loaded by ArticleSearch.ts the first time the box gets
 * focus: results as the visitor types, from the static index sitegen builds under `/search/`
 * (see sitegen/src/search.rs). It fetches the entry file at once, then per query only the word
 * shards the query's words need and the fragments of the results on screen, each once.
 * Markup, inside the root that names `article-search` (`data-index` = the entry's URL,
 * `data-results-label` = `{count} results`, `data-no-results`, and `data-fold` = the letters
 * the language's readers type as others, as the index folds them: `õo äa` for õ as o, ä as a):
 * - `[data-search-input]`: the box;
 * - `[data-search-results]`: the panel, shown while the box has a query;
 * - `[data-search-count]`: a live region counting the results;
 * - `[data-search-list]`: the result links.
 * A query's words are split like the index's (lowercased runs of letters and digits); every
 * word must match, the last one as a prefix (the visitor is still typing it) once it has the
 * entry's `prefix` characters; before that it waits (one letter would need all its shards).
 */
import { DOC_PLACEHOLDER } from '../schema/search'
import type { SearchDoc } from '../schema/SearchDoc'
import type { SearchEntry } from '../schema/SearchEntry'

/** A word shard: word -> postings, `[doc delta, weight, ...]` with docs in ascending order. */
type Shard = Map<string, number[]>

const MAX_RESULTS = 8

/** `data-fold` (`õo äa`) as a map from each letter to the one it is typed as. */
export function foldOf(pairs: string): Map<string, string> {
  return new Map(
    pairs
      .split(' ')
      .map((pair) => [...pair])
      .filter((pair): pair is [string, string] => pair.length === 2),
  )
}

export function queryWords(text: string, fold: ReadonlyMap<string, string> = new Map()): string[] {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
  if (fold.size === 0) return words
  return words.map((word) => [...word].map((c) => fold.get(c) ?? c).join(''))
}

/** The words to look up: all but the last whole, the last as a prefix once long enough. */
export function plan(
  query: string,
  minPrefix: number,
  fold: ReadonlyMap<string, string> = new Map(),
): { word: string; prefix: boolean }[] {
  const words = queryWords(query, fold).map((word) => ({ word, prefix: false }))
  const last = words.pop()
  if (last && [...last.word].length >= minPrefix) words.push({ word: last.word, prefix: true })
  return words
}

/** Compares by code points, as the index sorts its words (not by UTF-16 units, as `<` does). */
function compare(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0)
    if (d !== 0) return d
  }
  return x.length - y.length
}

/**
 * The shards (indexes into `entry.shards`) that may hold `word`, or with `prefix` the words
 * starting with it: the one with the greatest key not after `word`, and with `prefix` the ones
 * after it whose keys start with `word` (as `Entry::shards_for` in sitegen/src/search.rs).
 */
export function shardsFor(entry: SearchEntry, word: string, prefix: boolean): number[] {
  let low = 0
  let high = entry.shards.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (compare(entry.shards[mid]?.[0] ?? '', word) <= 0) low = mid + 1
    else high = mid
  }
  const found = [Math.max(low - 1, 0)]
  if (prefix) for (let i = low; i < entry.shards.length && (entry.shards[i]?.[0] ?? '').startsWith(word); i++) found.push(i)
  return found
}

/** The fragment file of article `doc`, relative to the entry (as `Entry::fragment` in sitegen/src/search.rs). */
function fragmentFile(entry: SearchEntry, doc: number): string {
  const folder = entry.fragments[Math.floor(doc / entry.per_folder)]
  if (folder === undefined || doc >= entry.docs) throw new Error(`the search index has no article ${doc}`)
  return folder.replace(DOC_PLACEHOLDER, String(doc))
}

/** The index as fetched so far: the entry, and the shards and fragments asked for. */
export class SearchIndex {
  private readonly shards = new Map<number, Promise<Shard>>()
  private readonly docs = new Map<number, Promise<SearchDoc>>()

  private constructor(
    private readonly base: URL,
    readonly entry: SearchEntry,
    private readonly fold: ReadonlyMap<string, string>,
  ) {}

  static async load(url: string, fold: ReadonlyMap<string, string> = new Map()): Promise<SearchIndex> {
    const base = new URL(url, document.baseURI)
    return new SearchIndex(base, await fetchJson<SearchEntry>(base), fold)
  }

  /** Documents matching every word of `query`, best first; `null` while there is nothing to look up. */
  async search(query: string): Promise<number[] | null> {
    const words = plan(query, this.entry.prefix, this.fold)
    if (words.length === 0) return null
    const perWord = await Promise.all(words.map(({ word, prefix }) => this.matches(word, prefix)))
    const [first, ...rest] = perWord
    const scores = [...(first ?? [])].filter(([doc]) => rest.every((found) => found.has(doc)))
    // Ties go to the newer article: docs are numbered oldest first.
    return scores
      .map(([doc, score]): [number, number] => [doc, rest.reduce((sum, found) => sum + (found.get(doc) ?? 0), score)])
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .map(([doc]) => doc)
  }

  /** The documents holding `word` (or with `prefix`, a word it begins), with their weights. */
  private async matches(word: string, prefix: boolean): Promise<Map<number, number>> {
    const shards = await Promise.all(shardsFor(this.entry, word, prefix).map((i) => this.shard(i)))
    const found = new Map<number, number>()
    for (const shard of shards) {
      for (const [key, postings] of shard) {
        if (key !== word && !(prefix && key.startsWith(word))) continue
        let doc = 0
        for (let i = 0; i + 1 < postings.length; i += 2) {
          doc += postings[i] ?? 0
          const weight = postings[i + 1] ?? 0
          // An exact word weighs more than a word it only begins.
          found.set(doc, (found.get(doc) ?? 0) + (key === word ? weight * 2 : weight))
        }
      }
    }
    return found
  }

  /** What result `doc` shows. */
  doc(doc: number): Promise<SearchDoc> {
    return this.once(this.docs, doc, () => fetchJson<SearchDoc>(new URL(fragmentFile(this.entry, doc), this.base)))
  }

  private shard(i: number): Promise<Shard> {
    return this.once(this.shards, i, async () => {
      const file = this.entry.shards[i]?.[1] ?? ''
      return new Map(Object.entries(await fetchJson<Record<string, number[]>>(new URL(file, this.base))))
    })
  }

  /** `load()` fetched once per key; a failed fetch is tried again next time. */
  private once<K, T>(cache: Map<K, Promise<T>>, key: K, load: () => Promise<T>): Promise<T> {
    let found = cache.get(key)
    if (!found) {
      found = load()
      cache.set(key, found)
      found.catch(() => cache.delete(key))
    }
    return found
  }
}

async function fetchJson<T>(url: URL): Promise<T> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`search index: HTTP ${response.status} for ${url.pathname}`)
  return (await response.json()) as T
}

export default class SearchBox {
  private index: Promise<SearchIndex> | null = null
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

  private load(): Promise<SearchIndex> {
    this.index ??= SearchIndex.load(this.root.dataset.index ?? '', foldOf(this.root.dataset.fold ?? ''))
    return this.index
  }

  private hide() {
    this.panel.hidden = true
    this.list.replaceChildren()
    this.count.textContent = ''
  }

  private async update() {
    const query = this.input.value
    if (queryWords(query).length === 0) return this.hide()
    const index = await this.load()
    const found = await index.search(query)
    if (this.input.value !== query) return
    if (found === null) return this.hide()
    const docs = await Promise.all(found.slice(0, MAX_RESULTS).map((doc) => index.doc(doc)))
    if (this.input.value !== query) return
    this.panel.hidden = false
    this.count.textContent =
      found.length === 0
        ? (this.root.dataset.noResults ?? '')
        : (this.root.dataset.resultsLabel ?? '{count}').replace('{count}', String(found.length))
    this.list.replaceChildren(
      ...docs.map((doc) => {
        const item = document.createElement('li')
        const link = document.createElement('a')
        link.href = doc.url
        link.className = 'block rounded-md px-2 py-3 hover:bg-ink-50 focus:bg-ink-50'
        const title = document.createElement('span')
        title.className = 'block font-semibold text-ink-950'
        title.textContent = doc.title
        const meta = document.createElement('span')
        meta.className = 'mt-1 block text-sm text-ink-600'
        meta.textContent = `${doc.author} · ${doc.excerpt}`
        link.append(title, meta)
        item.append(link)
        return item
      }),
    )
  }
}
