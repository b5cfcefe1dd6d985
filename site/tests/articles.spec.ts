import { expect, test } from '@playwright/test'
import { XMLParser } from 'fast-xml-parser'
import { articlePath, articles } from './support/articles'
import { content } from './support/content'
import { axeViolations } from './support/sections'
import { visit } from './support/visit'
import { DOC_PLACEHOLDER } from '../schema/search'
import type { SearchDoc } from '../schema/SearchDoc'
import type { SearchEntry } from '../schema/SearchEntry'

const insights = content.pages.insights
const words = insights.article

/** A word of one article's body that no other article, title or excerpt contains. */
function wordOnlyInOneBody(): { word: string; slug: string } {
  const wordsOf = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 7))
  const elsewhere = (slug: string) =>
    articles.flatMap((a) => [a.title, a.excerpt, ...(a.slug === slug ? [] : [a.text])]).join(' ').toLowerCase()
  for (const article of articles) {
    const other = wordsOf(elsewhere(article.slug))
    const word = [...wordsOf(article.text)].find((w) => !other.has(w) && ![...other].some((o) => o.startsWith(w)))
    if (word) return { word, slug: article.slug }
  }
  throw new Error('every body word occurs elsewhere')
}

// The articles' markup (the cards' links, an article's facts, contents, related articles and
// meta, the filter's links without JavaScript) is checked without a browser in
// tests-static/articles.spec.ts; what stays here needs a browser or the server.
test.describe('Articles', () => {
  // Its facts, contents' targets, body, related articles and call to action are checked in
  // tests-static/articles.spec.ts; here, that following the first contents entry scrolls to it.
  test('an article page shows its facts, body, contents, related articles and a call to action', async ({ page }) => {
    const article = articles.find((a) => a.toc.length > 0 && articles.some((b) => b !== a && b.category === a.category))
    if (!article) throw new Error('no long article with a related one')
    await visit(page, articlePath(article))
    const first = article.toc[0]
    if (!first) throw new Error('no contents')
    const toc = page.getByRole('navigation', { name: words.toc_label })
    await toc.getByRole('link', { name: first.text, exact: true }).click()
    await expect(page.locator(`[id="${first.id}"]`)).toBeInViewport()
  })

  test('search loads nothing before focus and finds a word of one body first', async ({ page }) => {
    const { word, slug } = wordOnlyInOneBody()
    const fetched: string[] = []
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
    await visit(page, '/insights')
    await page.waitForLoadState('networkidle')
    expect(fetched).not.toContain(content.search_index_path)
    // From here on, whatever loads is loaded for the search.
    fetched.length = 0
    const box = page.getByRole('searchbox', { name: insights.search.label })
    await box.focus()
    await expect.poll(() => fetched).toContain(content.search_index_path)
    expect(fetched.some((p) => p.endsWith('.js')), 'the search code loads on focus').toBe(true)
    await box.pressSequentially(word)
    const results = page.locator('[data-search-list] a')
    await expect(results.first()).toHaveAttribute('href', `/insights/${slug}`)
    await expect(page.getByRole('status')).toHaveText(insights.search.results_label.replace('{count}', '1'))
    // Keyboard: down from the box into the results, Enter opens the article.
    await box.press('ArrowDown')
    await expect(results.first()).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(articles.find((a) => a.slug === slug)?.title ?? '')
  })

  test('a one-word search fetches the entry, one word shard and the fragments it shows', async ({ page, request }) => {
    // The longest of the words found in the most articles: more results than one page holds.
    const counts = new Map<string, number>()
    for (const article of articles) {
      for (const w of new Set(article.text.toLowerCase().split(/[^\p{L}\p{N}]+/u))) counts.set(w, (counts.get(w) ?? 0) + 1)
    }
    const [word] = [...counts].filter(([w]) => w.length >= 6).sort((a, b) => b[1] - a[1] || b[0].length - a[0].length || a[0].localeCompare(b[0]))[0] ?? ['']
    const folder = content.search_index_path.slice(0, content.search_index_path.lastIndexOf('/') + 1)
    const entry = (await (await request.get(content.search_index_path)).json()) as SearchEntry
    const shardFiles = new Set(entry.shards.map(([, file]) => folder + file))
    const fragmentPatterns = entry.fragments.map((pattern) => (folder + pattern).split(DOC_PLACEHOLDER))
    const fetched: string[] = []
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname
      if (path.startsWith(folder)) fetched.push(path)
    })
    await visit(page, '/insights')
    const box = page.getByRole('searchbox', { name: insights.search.label })
    await box.focus()
    await box.fill(word)
    const results = page.locator('[data-search-list] a')
    await expect(results).toHaveCount(8)
    await page.waitForLoadState('networkidle')
    expect(fetched.filter((p) => p === content.search_index_path), 'the entry, once').toHaveLength(1)
    expect(fetched.filter((p) => shardFiles.has(p)), 'one word shard').toHaveLength(1)
    const fragments = fetched.filter((p) => fragmentPatterns.some(([before = '', after = '']) => p.startsWith(before) && p.endsWith(after)))
    expect(new Set(fragments).size, 'one fragment per result shown').toBe(8)
    expect(fetched, 'nothing else of the index').toHaveLength(1 + 1 + fragments.length)
    const shown = await results.evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    const fragmentDocs = await Promise.all(fragments.map(async (p) => ((await (await request.get(p)).json()) as SearchDoc).url))
    expect(new Set(fragmentDocs)).toEqual(new Set(shown))
  })

  test('the filter narrows the cards and the URL round-trips', async ({ page }) => {
    await visit(page, '/insights')
    await page.getByText(insights.search.filter_label, { exact: true }).click()
    const category = content.services[2]
    if (!category) throw new Error('no third category')
    await page.getByRole('button', { name: category.name, exact: true }).click()
    expect(new URL(page.url()).searchParams.get('category')).toBe(category.slug)
    const cards = page.locator('[data-article-card]:visible')
    const expected = articles.filter((a) => a.category === category.slug)
    await expect(cards).toHaveCount(expected.length)
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
    await expect(cards).toHaveCount(expected.length)
    await page.getByText(insights.search.filter_label, { exact: true }).click()
    await page.getByRole('button', { name: insights.latest.type_labels.technical, exact: true }).click()
    expect(new URL(page.url()).searchParams.get('type')).toBe('technical')
    await expect(cards).toHaveCount(expected.filter((a) => a.type === 'technical').length)
  })

  test('the search results have no accessibility violations at 1440 and 390 px', async ({ browser }) => {
    test.slow()
    const { word } = wordOnlyInOneBody()
    expect(
      await axeViolations(browser, '/insights', async (page) => {
        const box = page.getByRole('searchbox', { name: insights.search.label })
        await box.focus()
        await box.pressSequentially(word.slice(0, 4))
        await expect(page.locator('[data-search-list] a').first()).toBeVisible()
      }),
    ).toEqual([])
  })

  test('the feed parses and lists every article with absolute links', async ({ request }) => {
    const response = await request.get(content.feed_path)
    expect(response.ok()).toBe(true)
    const feed = new XMLParser({ ignoreAttributes: false }).parse(await response.text()).feed
    const entries = [feed.entry].flat()
    expect(entries.map((e: { title: string }) => String(e.title))).toEqual(articles.map((a) => a.title))
    for (const [i, entry] of entries.entries()) {
      const article = articles[i]
      if (!article) throw new Error('more entries than articles')
      expect(entry.link['@_href']).toBe(`${content.settings.base_url}${articlePath(article)}/`)
      expect(entry.updated).toBe(`${article.date}T00:00:00Z`)
      expect(entry.summary).toBe(article.excerpt)
      expect(String(entry.content['#text'])).toContain('<p>')
    }
  })
})
