import { expect, test } from '@playwright/test'
import { visit } from './support/visit'
import { content, pathOf, settings } from './support/content'

const notFound = settings.not_found
const firstCategory = content.services[0]?.slug ?? 'none'
const missingPaths = ['/no-such-page', '/services/no-such-category', `/services/${firstCategory}/no-such-service`]

for (const missing of missingPaths) {
  test(`${missing} answers 404 with the not-found page`, async ({ page }) => {
    const logged: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text())
    })

    const response = await visit(page, missing)
    expect(response?.status()).toBe(404)

    await expect(page).toHaveTitle(notFound.meta.title)
    await expect(page.getByText(notFound.code, { exact: true })).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: notFound.title })).toBeVisible()
    await expect(page.getByRole('navigation', { name: settings.ui.main_nav_label })).toBeVisible()
    await expect(page.getByRole('contentinfo')).toBeVisible()
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(0)

    // The missing path is logged for whoever looks at the console.
    await expect.poll(() => logged.some((line) => line.includes(missing))).toBe(true)
  })
}

test('the not-found page links back home', async ({ page }) => {
  const home = content.routes.find((route) => route.path === '/')
  await visit(page, '/no-such-page')
  await page.getByRole('main').getByRole('link', { name: notFound.home_link.label }).click()
  await expect.poll(() => pathOf(page.url())).toBe(notFound.home_link.href)
  await expect(page).toHaveTitle(home?.title ?? '')
})

test('the not-found page suggests pages to try instead', async ({ page }) => {
  await visit(page, '/no-such-page')
  const suggestions = page.getByRole('navigation', { name: notFound.suggestions_title })
  await expect(suggestions.getByRole('link')).toHaveText(notFound.suggestions.map((link) => link.label))
  expect(notFound.suggestions.length).toBeGreaterThan(0)
  for (const link of notFound.suggestions) {
    await expect(suggestions.getByRole('link', { name: link.label })).toHaveAttribute('href', link.href)
  }
})
