import { expect, test } from '@playwright/test'
import { visit } from './support/visit'
import { content, settings } from './support/content'

// The not-found page's markup (title, code, heading, footer, no canonical link, the links home
// and to other pages) is checked without a browser in tests-static/not-found.spec.ts, over the
// built 404.html; what stays here is what the server answers each missing path with (the status,
// the page by its heading), the menu shown, and the path logged to the console.

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

    await expect(page.getByRole('heading', { level: 1, name: notFound.title })).toBeVisible()
    await expect(page.getByRole('navigation', { name: settings.ui.main_nav_label })).toBeVisible()

    // The missing path is logged for whoever looks at the console.
    await expect.poll(() => logged.some((line) => line.includes(missing))).toBe(true)
  })
}
