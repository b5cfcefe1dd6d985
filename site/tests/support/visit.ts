import { expect, type Page } from '@playwright/test'

/** Opens `path` and waits until the page is interactive (hydrated), as a visitor would. */
export async function visit(page: Page, path: string) {
  const response = await page.goto(path)
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  return response
}
