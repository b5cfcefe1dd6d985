import { expect, test } from '@playwright/test'
import { content, html, htmlFile } from './support/built'
import { byRole, nameOf, only } from './support/roles'

// The Estonian site beside the English one, as the server sends it. (Moved from the Chromium
// suite: tests/i18n.spec.ts keeps the Estonian search and the status a missing Estonian path gets.)
const estonian = content.translations?.find((t) => t.settings.language === 'et')
if (!estonian) throw new Error('the content has no Estonian translation')
const english = content.settings.languages[0]?.name ?? 'English'
const eesti = content.settings.languages.find((l) => l.tag === 'et')?.name ?? 'Eesti'

// The switcher's entries are plain links: their hrefs, and the pages they lead to.
test('the switcher on an article with a translated slug lands on its translation, and back', () => {
  const route = estonian.routes.find((r) => r.kind === 'article')
  if (!route || route.kind !== 'article') throw new Error('no Estonian article')
  const source = content.routes.find((r) => r.kind === 'article' && r.params.slug === route.params.slug)
  if (!source) throw new Error('no English article')
  expect(route.path).not.toBe(`/et${source.path}`)

  const $ = html(source.path)
  const switcher = only($, 'navigation', { name: content.settings.ui.languages_label })
  const there = only($, 'link', { name: eesti }, switcher).attr('href') ?? ''
  expect(there).toMatch(new RegExp(`^${route.path}/?$`))

  const $et = html(there)
  expect($et('html').attr('lang')).toBe('et')
  const article = estonian.articles.find((a) => a.slug === route.params.slug)
  expect(byRole($et, 'heading', { level: 1 }).map((h) => nameOf($et, h))).toEqual([article?.title ?? ''])
  const back = only($et, 'link', { name: english }, only($et, 'navigation', { name: estonian.settings.ui.languages_label }))
  expect(back.attr('href')).toMatch(new RegExp(`^${source.path}/?$`))
})

// The page `sitegen serve` answers unknown paths under /et/ with (et/404.html).
test('an unknown path under /et/ answers the Estonian not-found page', () => {
  const $ = htmlFile('et/404.html')
  expect($('html').attr('lang')).toBe('et')
  expect(byRole($, 'heading', { level: 1 }).map((h) => nameOf($, h))).toEqual([estonian.settings.not_found.title])
})
