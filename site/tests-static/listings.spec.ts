import { expect, test } from '@playwright/test'
import type { SiteContent } from '../schema/SiteContent'
import { content, html } from './support/built'

// The site's rule for a listing with nothing in the page's language (none of the featured
// articles translated, a category without an Estonian article): the list is left out with its
// heading, never shown as a heading over nothing, and no English item is mixed in.

const languages: SiteContent[] = [content, ...(content.translations ?? [])]

test('no page of any language shows a list with nothing in it', () => {
  for (const site of languages) {
    for (const route of site.routes) {
      const page = html(route.path)
      const empty = page('ul[role="list"]').filter((_, list) => page(list).children('li').length === 0)
      expect(empty.length, `${route.path}: empty lists`).toBe(0)
    }
  }
})

test('the Insights page leaves out the featured section where no featured article is in its language', () => {
  for (const site of languages) {
    const route = site.routes.find((r) => r.kind === 'insights')
    if (!route) throw new Error(`${site.settings.language} has no Insights page`)
    const page = html(route.path)
    const headings = page('h2').toArray().map((h) => page(h).text().trim())
    const featured = site.articles.some((a) => a.featured)
    expect(headings.includes(site.pages.insights.featured.intro.title), `${route.path}: featured heading`).toBe(featured)
    // Every listed article is one of this language's.
    const own = new Set(site.routes.filter((r) => r.kind === 'article').map((r) => r.path))
    const listed = page('[data-article-card] a[href]').toArray().map((a) => page(a).attr('href') ?? '')
    expect(listed.length, route.path).toBeGreaterThan(0)
    for (const href of listed) expect(own.has(href), `${route.path} lists ${href}`).toBe(true)
  }
})
