// axe on one form and the toasts it shows, in whatever state the test left it.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'

/** The WCAG 2.1 A and AA violations axe finds in `form` (named by its heading) and the toasts. */
export async function formAxeViolations(page: Page, form: Locator) {
  // A toast fading in is measured mid-transition at a fraction of its contrast: wait until
  // every finite animation (the toasts' entrance) has finished, as a reader would see it.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  )
  const formId = await form.evaluate((element) => element.getAttribute('aria-labelledby'))
  const results = await new AxeBuilder({ page })
    .include(`form[aria-labelledby="${formId}"]`)
    .include('[data-sonner-toaster]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}
