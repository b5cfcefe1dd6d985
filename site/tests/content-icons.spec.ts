import { expect, type Page, test } from '@playwright/test'
import { pathOf, settings } from './support/content'
import { pageErrors } from './support/pageErrors'
import { visit } from './support/visit'

// Content icons travel with each page's data rather than in the bundle. A page must draw the
// icons its prerendered HTML holds both once hydrated and when reached by client-side navigation.

const lucideName = (classes: string | null | undefined) => classes?.match(/\blucide-[\w-]+/)?.[0] ?? '(other)'

/** The icons drawn in the page's main content, in order, by their lucide class. */
function drawnIcons(page: Page) {
  return page
    .getByRole('main')
    .locator('svg')
    .evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute('class')))
    .then((classes) => classes.map(lucideName))
}

/** The icons in the main content of the page's prerendered HTML, as served. */
async function prerenderedIcons(page: Page, path: string) {
  const html = await (await page.request.get(path)).text()
  const main = /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? ''
  return [...main.matchAll(/<svg\b[^>]*>/g)].map(([tag]) => lucideName(/\bclass="([^"]*)"/.exec(tag)?.[1]))
}

test.describe('content icons', () => {
  for (const link of settings.nav.links) {
    test(`${link.label}: drawn once hydrated and after navigating there`, async ({ page }) => {
      const errors = pageErrors(page)
      const prerendered = await prerenderedIcons(page, link.href)
      expect(prerendered.filter((name) => name !== '(other)').length).toBeGreaterThan(0)

      await visit(page, link.href)
      expect(await drawnIcons(page)).toEqual(prerendered)
      const heading = await page.getByRole('heading', { level: 1 }).textContent()

      await visit(page, '/')
      await page
        .getByRole('navigation', { name: settings.ui.main_nav_label })
        .getByRole('link', { name: link.label, exact: true })
        .click()
      await expect.poll(() => pathOf(page.url())).toBe(link.href)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading ?? '')
      expect(await drawnIcons(page)).toEqual(prerendered)
      expect(errors).toEqual([])
    })
  }
})
