import { expect, test } from '@playwright/test'
import { content, html, htmlFile, settings } from './support/built'
import { byRole, hasExactText, nameOf, only } from './support/roles'

// The not-found page as built (404.html, which `sitegen serve` answers unknown paths with).
// (Moved from the Chromium suite: tests/not-found.spec.ts keeps the 404 status each missing path
// gets, the menu shown and the path logged to the console, which need the server and a browser.)

const notFound = settings.not_found
const page = () => htmlFile('404.html')

test('/no-such-page answers 404 with the not-found page', () => {
  const $ = page()
  expect($('head > title').text()).toBe(notFound.meta.title)
  expect(hasExactText($, $('body'), notFound.code)).toBe(true)
  only($, 'heading', { level: 1, name: notFound.title })
  expect(byRole($, 'contentinfo')).toHaveLength(1)
  expect($('link[rel="canonical"]')).toHaveLength(0)
})

// A plain link: its href, and the title of the page it leads to.
test('the not-found page links back home', () => {
  const $ = page()
  const home = content.routes.find((route) => route.path === '/')
  const href = only($, 'link', { name: notFound.home_link.label }, $('main')).attr('href')
  expect(href).toBe(notFound.home_link.href)
  expect(html(href ?? '')('head > title').text()).toBe(home?.title ?? '')
})

test('the not-found page suggests pages to try instead', () => {
  const $ = page()
  const suggestions = only($, 'navigation', { name: notFound.suggestions_title })
  const links = byRole($, 'link', {}, suggestions)
  expect(links.map((a) => nameOf($, a))).toEqual(notFound.suggestions.map((link) => link.label))
  expect(notFound.suggestions.length).toBeGreaterThan(0)
  for (const link of notFound.suggestions) {
    expect(only($, 'link', { name: link.label }, suggestions).attr('href')).toBe(link.href)
  }
})
