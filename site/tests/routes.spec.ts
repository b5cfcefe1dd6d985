import { expect, test } from '@playwright/test'
import { visit } from './support/visit'
import { content, settings } from './support/content'

test.describe('every route in the content', () => {
  test('the content lists the routes of the site', () => {
    expect(content.routes.length).toBeGreaterThan(0)
    expect(content.routes.map((r) => r.path)).toContain('/')
  })

  for (const route of content.routes) {
    test(`${route.path} renders its page inside the layout`, async ({ page }) => {
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(error.message))

      const response = await visit(page, route.path)
      expect(response?.status()).toBe(200)

      await expect(page).toHaveTitle(route.title)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', route.description)
      const canonical = `${settings.base_url}${route.path === '/' ? '/' : `${route.path}/`}`
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonical)
      await expect(page.locator('html')).toHaveAttribute('lang', settings.language)

      await expect(page.getByRole('navigation', { name: settings.ui.main_nav_label })).toBeVisible()
      await expect(page.getByRole('link', { name: settings.nav.home_label }).first()).toBeVisible()
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      const footer = page.getByRole('contentinfo')
      await expect(footer).toBeVisible()
      await expect(footer.getByText(settings.footer.copyright)).toBeVisible()

      // Hydration ran (visit waits for it) without errors; a mismatch would log one.
      expect(errors).toEqual([])
    })
  }
})
