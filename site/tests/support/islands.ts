import { expect, type Locator, type Page } from '@playwright/test'

/** The island (islands/Island.tsx) holding `form`. */
export function islandOf(form: Locator): Locator {
  return form.locator('xpath=ancestor::*[@data-island][1]')
}

/**
 * Reaches for the form as a visitor does (focus on its first text field), which hydrates its
 * React island, and waits until it has: from then on it sends from script, with toasts.
 */
export async function startUsing(form: Locator) {
  await form.getByRole('textbox').first().focus()
  await expect(islandOf(form)).toHaveAttribute('data-hydrated', 'true')
}

/** Marks in a script or stylesheet that only React, react-dom or sonner contain. */
export const frameworkMarks = [
  // React's element type and react-dom's devtools hook, in every build of them.
  'react.transitional.element',
  '__REACT_DEVTOOLS_GLOBAL_HOOK__',
  // sonner's toaster, in its script and its stylesheet.
  'data-sonner-toaster',
]

/** Every script and stylesheet the page fetches from now on, with its text. */
export function recordAssets(page: Page) {
  const assets: { url: string; text: Promise<string> }[] = []
  page.on('response', (response) => {
    const type = response.request().resourceType()
    if (type === 'script' || type === 'stylesheet') {
      assets.push({ url: response.url(), text: response.text().catch(() => '') })
    }
  })
  return async () => Promise.all(assets.map(async ({ url, text }) => ({ url, text: await text })))
}

/** The assets among `assets` that carry React, react-dom or sonner. */
export function frameworkAssets(assets: { url: string; text: string }[]): string[] {
  return assets.filter(({ text }) => frameworkMarks.some((mark) => text.includes(mark))).map(({ url }) => url)
}
