import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import type { SiteContent } from '../schema/SiteContent'
import { content } from '../tests/support/content'

// The site's rule for a listing with nothing in the page's language (none of the featured
// articles translated, a category without an Estonian article): the list is left out with its
// heading, never shown as a heading over nothing, and no English item is mixed in.

const dist = path.resolve(import.meta.dirname, '../../target/e2e/dist')
const htmlOf = (route: string) => {
  const trimmed = route.replace(/^\/+|\/+$/g, '')
  return readFileSync(path.join(dist, trimmed === '' ? 'index.html' : `${trimmed}/index.html`), 'utf8')
}
const languages: SiteContent[] = [content, ...(content.translations ?? [])]

test('no page of any language shows an empty list', () => {
  for (const site of languages) {
    for (const route of site.routes) {
      expect(htmlOf(route.path), route.path).not.toMatch(/<ul role="list"[^>]*>\s*<\/ul>/)
    }
  }
})

test('the Insights page leaves out the featured section where no featured article is in its language', () => {
  for (const site of languages) {
    const route = site.routes.find((r) => r.kind === 'insights')
    if (!route) throw new Error(`${site.settings.language} has no Insights page`)
    const heading = site.pages.insights.featured.intro.title
    const featured = site.articles.some((a) => a.featured)
    expect(htmlOf(route.path).includes(heading), `${route.path}: "${heading}" shown`).toBe(featured)
    // Every listed article is one of this language's.
    const links = [...htmlOf(route.path).matchAll(/data-article-card[^>]*>[\s\S]*?href="([^"]+)"/g)].map((m) => m[1])
    const own = new Set(site.routes.filter((r) => r.kind === 'article').map((r) => r.path))
    for (const href of links) expect(own.has(href ?? ''), `${route.path} lists ${href}`).toBe(true)
  }
})
