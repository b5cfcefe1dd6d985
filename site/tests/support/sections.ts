import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { visit } from './visit'

/** The texts of the page's section headings (h2 in main), in document order. */
export function sectionHeadings(page: Page) {
  return page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts()
}

/** Scrolls through the whole page as a reader would, so every section has been in view. */
export async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  const step = (page.viewportSize()?.height ?? 900) / 2
  for (let y = 0; y <= height; y += step) {
    await page.mouse.wheel(0, step)
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
}

/**
 * WCAG 2.1 A/AA violations of `path` at 1440 and 390 px, after scrolling through the page so
 * revealed sections are checked in their final look, and with `prepare` applied (e.g. opening
 * an accordion item).
 */
export async function axeViolations(browser: Browser, path: string, prepare?: (page: Page) => Promise<void>) {
  const found: string[] = []
  for (const width of [1440, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const page = await context.newPage()
    await visit(page, path)
    await scrollThrough(page)
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-reveal]')].every((el) => getComputedStyle(el).opacity === '1'),
    )
    await prepare?.(page)
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    for (const v of results.violations) {
      found.push(`${width}px ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
    }
    await context.close()
  }
  return found
}
