import { expect, test } from '@playwright/test'
import { content, html, settings } from './support/built'
import { byRole, only, textOf } from './support/roles'

// The navigation bar and the footer as the server sends them. (Moved from the Chromium suite:
// tests/navigation.spec.ts keeps the Services dropdown's behaviour, focus, the skip link and
// the scroll position after navigating.)

const { nav, ui } = settings
const mainNav = ($: ReturnType<typeof html>) => only($, 'navigation', { name: ui.main_nav_label })
const titleOf = (path: string) => content.routes.find((route) => route.path === path)?.title ?? `no route ${path}`
const titleAt = (path: string) => html(path)('head > title').text()

test.describe('Services dropdown', () => {
  // Opening it (aria-expanded, the links shown) is the Chromium test of the same name's; its
  // links are in the markup, hidden until then.
  test('opens on click and lists every category and "view all"', () => {
    const $ = html('/')
    const menu = mainNav($)
    expect(only($, 'button', { name: nav.services.label }, menu).attr('aria-expanded')).toBe('false')
    for (const link of [...nav.services.links, nav.services.view_all]) {
      expect(only($, 'link', { name: link.label, includeHidden: true }, menu).attr('href')).toBe(link.href)
    }
  })
})

test.describe('navigation bar', () => {
  test('marks the current page, and Services on service pages', () => {
    for (const link of nav.links) {
      const $ = html(link.href)
      const menu = mainNav($)
      expect(only($, 'link', { name: link.label }, menu).attr('aria-current'), link.href).toBe('page')
      for (const other of nav.links.filter((l) => l.href !== link.href)) {
        expect(only($, 'link', { name: other.label }, menu).attr('aria-current'), `${other.label} on ${link.href}`).toBeUndefined()
      }
    }
    const category = nav.services.links[0]
    if (!category) throw new Error('the Services menu has no links')
    const $ = html(category.href)
    expect(only($, 'link', { name: category.label, includeHidden: true }, mainNav($)).attr('aria-current')).toBe('page')
  })

  // The logo and the call to action are plain links: their hrefs, and the page the call leads to.
  test('the logo leads home and the call to action to its page', () => {
    const $ = html('/about')
    const banner = only($, 'banner', {})
    expect(only($, 'link', { name: nav.home_label }, banner).attr('href')).toBe('/')
    const ctas = byRole($, 'link', { name: nav.cta.label }, banner)
    expect(ctas.at(-1)?.attribs.href).toBe(nav.cta.href)
    expect(titleAt(nav.cta.href)).toBe(titleOf(nav.cta.href))
  })
})

test.describe('footer', () => {
  test('has the brand, the link columns and the copyright', () => {
    const $ = html('/')
    const footer = only($, 'contentinfo', {})
    const text = textOf($, footer)
    expect(text).toContain(settings.footer.description)
    const links = only($, 'navigation', { name: ui.footer_nav_label }, footer)
    for (const column of settings.footer.columns) {
      only($, 'heading', { name: column.title }, footer)
      for (const link of column.links) {
        expect(only($, 'link', { name: link.label }, links).attr('href')).toBe(link.href)
      }
    }
    expect(text).toContain(settings.footer.copyright)
  })

  test('shows the social networks as placeholders, not as links', () => {
    const $ = html('/')
    const footer = only($, 'contentinfo', {})
    const social = only($, 'list', { name: settings.footer.social_label }, footer)
    for (const network of settings.footer.social) {
      only($, 'img', { name: network.name }, social)
      expect(byRole($, 'link', { name: new RegExp(network.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') }, footer)).toHaveLength(0)
    }
    expect($('a[href="#"], a:not([href])')).toHaveLength(0)
  })
})

