import { expect, test } from '@playwright/test'
import { articlePath, articles, blogList, categoryName, featured, latest } from '../tests/support/articles'
import { content, html } from './support/built'
import { byRole, hasExactText, nameOf, only, textOf } from './support/roles'

// The articles and their listings as the server sends them. (Moved from the Chromium suite:
// tests/articles.spec.ts keeps the search, the filter, the jump to a contents entry, axe and
// the feed's answer.)

const insights = content.pages.insights
const words = insights.article
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))
const h1Of = (path: string) => {
  const $ = html(path)
  return names($, byRole($, 'heading', { level: 1 }))
}

test.describe('Articles', () => {
  // The cards' links are plain links: their hrefs, and the titles of the pages they lead to.
  test('every card on Insights opens its article', () => {
    const cards = [...featured, ...latest]
    const $ = html('/insights')
    for (const article of cards) {
      expect(byRole($, 'link', { name: article.title })[0]?.attribs.href, article.title).toBe(articlePath(article))
    }
    expect(cards.length).toBeGreaterThan(0)
    for (const article of cards) expect(h1Of(articlePath(article))).toEqual([article.title])
    expect(blogList).toHaveLength(4)
  })

  // That following the first contents entry scrolls to its heading is the Chromium test of the same name's.
  test('an article page shows its facts, body, contents, related articles and a call to action', () => {
    const article = articles.find((a) => a.toc.length > 0 && articles.some((b) => b !== a && b.category === a.category))
    if (!article) throw new Error('no long article with a related one')
    const $ = html(articlePath(article))
    const body = $('body')
    expect(h1Of(articlePath(article))).toEqual([article.title])
    expect(hasExactText($, body, article.date_display)).toBe(true)
    expect(hasExactText($, body, `${article.read_time} ${words.read_time_suffix}`)).toBe(true)
    expect(hasExactText($, body, content.authors[article.author]?.name ?? '')).toBe(true)
    // Named like getByRole's default: the name contains the category's, in any case.
    const category = new RegExp(categoryName(article.category).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')
    expect(byRole($, 'link', { name: category })[0]?.attribs.href).toBe(`/insights/category/${article.category}`)
    // The body: its first heading, reachable from the contents.
    const first = article.toc[0]
    if (!first) throw new Error('no contents')
    const toc = only($, 'navigation', { name: words.toc_label })
    expect(only($, 'link', { name: first.text }, toc).attr('href')).toBe(`#${first.id}`)
    expect($(`[id="${first.id}"]`)).toHaveLength(1)
    expect(textOf($, $('.article-body'))).toContain(article.text.slice(0, 60).replace(/\s+/g, ' ').trim())
    // Related: the other articles of its category.
    const related = only($, 'region', { name: words.related_title })
    const expected = articles.filter((a) => a.category === article.category && a !== article).slice(0, 3)
    expect(byRole($, 'article', {}, related)).toHaveLength(expected.length)
    for (const other of expected) {
      expect(only($, 'link', { name: other.title }, related).attr('href')).toBe(articlePath(other))
    }
    const cta = only($, 'region', { name: words.cta.title })
    expect(byRole($, 'link', {}, cta)[0]?.attribs.href).toBe('/contact')
  })

  test('an article page has its own Open Graph tags and Article JSON-LD', () => {
    const article = articles[0]
    if (!article) throw new Error('no articles')
    const $ = html(articlePath(article))
    const meta = (property: string) => {
      const found = $(`meta[property="${property}"]`)
      expect(found, property).toHaveLength(1)
      return found.attr('content')
    }
    expect(meta('og:type')).toBe('article')
    expect(meta('og:url')).toBe(`${content.settings.base_url}${articlePath(article)}/`)
    const card = content.cards[articlePath(article)]
    if (!card) throw new Error(`no social card for ${articlePath(article)}`)
    expect(meta('og:image')).toBe(`${content.settings.base_url}${card.src}`)
    expect(meta('og:description')).toBe(article.excerpt)
    const scripts = $('script[type="application/ld+json"]')
    expect(scripts).toHaveLength(1)
    // One graph per page (structured-data.spec.ts checks its shape): the article is its Article.
    const graph = (JSON.parse(scripts.text() || '{}') as { '@graph'?: Record<string, unknown>[] })['@graph'] ?? []
    const nodes = graph.filter((node) => node['@type'] === 'Article')
    expect(nodes).toHaveLength(1)
    expect(nodes[0]).toMatchObject({ headline: article.title, datePublished: article.date })
    const feed = $('link[rel="alternate"][type="application/atom+xml"]')
    expect(feed).toHaveLength(1)
    expect(feed.attr('href')).toBe(content.feed_path)
  })

  // What a browser without JavaScript shows is the server's HTML: the filter's categories are
  // plain links, and the listing pages they lead to.
  test('without JavaScript the filter categories are links to the listing pages', () => {
    const $ = html('/insights')
    expect(hasExactText($, $('body'), insights.search.filter_label)).toBe(true)
    for (const category of content.services) {
      const href = byRole($, 'link', { name: category.name })[0]?.attribs.href ?? ''
      expect(href).toBe(`/insights/category/${category.slug}`)
      const listing = html(href)
      expect(names(listing, byRole(listing, 'heading', { level: 1 }))).toEqual([category.name])
      const listed = articles.filter((a) => a.category === category.slug)
      expect(byRole(listing, 'article')).toHaveLength(listed.length)
    }
  })
})
