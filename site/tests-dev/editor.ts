// What the browser editor's tests (*.cms.ts) do alike: sign in to /admin/ of a `sitegen dev`,
// and publish the entry open in a page.
import { expect, type Page } from '@playwright/test'

/** Opens /admin/ of the dev server at `url` and signs in (there is no account locally). */
export async function logIn(page: Page, url: string) {
  await page.goto(new URL('/admin/', url).href)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page.getByRole('link', { name: 'Articles', exact: true })).toBeVisible()
}

/** Publishes the entry open in `page`, as an author does: **Publish**, then **Publish now**. */
export async function publish(page: Page) {
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.getByText('Publish now').click()
}
