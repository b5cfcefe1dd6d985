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

/** The widths every page is audited at: a desktop and a phone. */
export const AUDIT_WIDTHS = [1440, 390]

/**
 * A context whose pages open with reduced motion, under which the reveal enhancement hides
 * nothing: every section shows in the look it has once revealed, without scrolling through the
 * page first (home.spec.ts tests the reveal).
 */
export function auditContext(browser: Browser) {
  return browser.newContext({ viewport: { width: AUDIT_WIDTHS[0] ?? 1440, height: 900 }, reducedMotion: 'reduce' })
}

/** WCAG 2.1 A/AA violations of the open `page` at each of `widths` (the audit widths), in turn. */
export async function auditedViolations(page: Page, widths: readonly number[] = AUDIT_WIDTHS) {
  const found: string[] = []
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 })
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    for (const v of results.violations) {
      found.push(`${width}px ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
    }
  }
  return found
}

/** WCAG 2.1 A/AA violations of `path` at the audit widths, with `prepare` applied first. */
export async function axeViolations(browser: Browser, path: string, prepare?: (page: Page) => Promise<void>) {
  const context = await auditContext(browser)
  const page = await context.newPage()
  await visit(page, path)
  await prepare?.(page)
  const found = await auditedViolations(page)
  await context.close()
  return found
}
