import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { visit } from './support/visit'

// WCAG 2.1 A/AA checks of every page and the not-found page, at desktop and phone widths.
const widths = [1440, 390]
const paths = [...content.routes.map((route) => route.path), '/no-such-page']

// axe walks the whole DOM twice per page: allow it more than the default test time.
test.describe.configure({ timeout: 180_000 })

for (const path of paths) {
  test(`${path} has no accessibility violations at ${widths.join(' and ')} px`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    await visit(page, path)
    const found: string[] = []
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 })
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
      for (const v of results.violations) {
        found.push(`${width}px ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
      }
    }
    await context.close()
    expect(found).toEqual([])
  })
}
