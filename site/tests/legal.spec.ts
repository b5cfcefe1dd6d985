import { expect, test } from '@playwright/test'
import type { LegalPage } from '../schema/LegalPage'
import { content } from './support/content'
import { visit } from './support/visit'

// The pages' markup (headings, dates, the table of contents' entries and targets, the contact
// link, the promises) is checked without a browser in tests-static/legal.spec.ts; what stays
// here needs a browser: scrolling to a section and the width of the lines.

const pages: [string, LegalPage, string][] = [
  ['/privacy', content.pages.privacy, 'Privacy Policy'],
  ['/terms', content.pages.terms, 'Terms of Service'],
]

for (const [path, page, title] of pages) {
  test.describe(title, () => {
    // The sections' order and every entry's target are checked in tests-static/legal.spec.ts.
    test('has its sections in order, each reachable from the table of contents', async ({ page: tab }) => {
      await visit(tab, path)
      const contents = tab.getByRole('navigation', { name: page.contents_label })
      const last = page.sections.at(-1)
      if (!last) throw new Error(`${path} has no sections`)
      await contents.getByRole('link', { name: last.title }).click()
      await expect(tab).toHaveURL(new RegExp(`#${last.id}$`))
      await expect(tab.getByRole('heading', { level: 2, name: last.title })).toBeInViewport()
    })

    test('keeps lines short enough to read', async ({ page: tab }) => {
      await visit(tab, path)
      const paragraph = tab.getByRole('main').locator('article p').first()
      const chars = await paragraph.evaluate((p) => {
        const width = p.getBoundingClientRect().width
        const size = parseFloat(getComputedStyle(p).fontSize)
        // An average character of running text is about half the font size wide.
        return width / (size * 0.5)
      })
      expect(chars).toBeLessThanOrEqual(90)
    })
  })
}
