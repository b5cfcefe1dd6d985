import { expect, type Page, test } from '@playwright/test'
import { visit } from './support/visit'
import { content, pathOf, settings } from './support/content'

const { nav, ui } = settings
const mainNav = (page: Page) => page.getByRole('navigation', { name: ui.main_nav_label })
const servicesButton = (page: Page) => mainNav(page).getByRole('button', { name: nav.services.label })
const titleOf = (path: string) => content.routes.find((route) => route.path === path)?.title ?? `no route ${path}`

// The bar's and the footer's markup (the menu's hrefs, the current page marked, the logo and
// call to action, the footer's columns, copyright and social placeholders) is checked without a
// browser in tests-static/navigation.spec.ts; what stays here needs a browser: the dropdown's
// behaviour, focus, the skip link and the scroll position after navigating.
test.describe('Services dropdown', () => {
  test('opens on click and lists every category and "view all"', async ({ page }) => {
    await visit(page, '/')
    const button = servicesButton(page)
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page).getByRole('link', { name: nav.services.view_all.label })).toBeHidden()

    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    // Their hrefs are checked in tests-static/navigation.spec.ts; here, that opening shows them.
    for (const link of [...nav.services.links, nav.services.view_all]) {
      await expect(mainNav(page).getByRole('link', { name: link.label, exact: true })).toBeVisible()
    }
  })

  test('closes on a click outside it', async ({ page }) => {
    await visit(page, '/')
    await servicesButton(page).click()
    await expect(servicesButton(page)).toHaveAttribute('aria-expanded', 'true')
    await page.getByRole('heading', { level: 1 }).click()
    await expect(servicesButton(page)).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page).getByRole('link', { name: nav.services.view_all.label })).toBeHidden()
  })

  test('closes on Escape and gives focus back to its button', async ({ page }) => {
    await visit(page, '/')
    await servicesButton(page).click()
    await mainNav(page).getByRole('link', { name: nav.services.links[0]?.label }).focus()
    await page.keyboard.press('Escape')
    await expect(servicesButton(page)).toHaveAttribute('aria-expanded', 'false')
    await expect(servicesButton(page)).toBeFocused()
  })

  test('works from the keyboard', async ({ page }) => {
    await visit(page, '/')
    await servicesButton(page).focus()
    await page.keyboard.press('Enter')
    await expect(servicesButton(page)).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.press('Tab')
    await expect(mainNav(page).getByRole('link', { name: nav.services.links[0]?.label })).toBeFocused()
  })

  test('navigates to a category and closes', async ({ page }) => {
    const target = nav.services.links[2] ?? nav.services.links[0]
    if (!target) throw new Error('the Services menu has no links')
    await visit(page, '/')
    await servicesButton(page).click()
    await mainNav(page).getByRole('link', { name: target.label, exact: true }).click()
    await expect.poll(() => pathOf(page.url())).toBe(target.href)
    await expect(page).toHaveTitle(titleOf(target.href))
    await expect(servicesButton(page)).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page).getByRole('link', { name: target.label, exact: true })).toBeHidden()
  })

  test('"view all" leads to the services overview', async ({ page }) => {
    await visit(page, '/about')
    await servicesButton(page).click()
    await mainNav(page).getByRole('link', { name: nav.services.view_all.label }).click()
    await expect.poll(() => pathOf(page.url())).toBe(nav.services.view_all.href)
    await expect(page).toHaveTitle(titleOf(nav.services.view_all.href))
  })
})

test.describe('navigation bar', () => {
  test('a skip link jumps past the navigation to the content', async ({ page }) => {
    await visit(page, '/')
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: ui.skip_to_content })
    await expect(skip).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('main')).toBeFocused()
  })
})

test.describe('after navigating', () => {
  test('the new page starts at the top', async ({ page }) => {
    await visit(page, '/')
    const footer = page.getByRole('contentinfo')
    const link = footer.getByRole('link').filter({ hasNotText: '' }).nth(4)
    await link.scrollIntoViewIfNeeded()
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    const href = await link.getAttribute('href')
    await link.click()
    await expect.poll(() => pathOf(page.url())).toBe(href)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
  })
})
