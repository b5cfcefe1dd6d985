import { expect, type Page, test } from '@playwright/test'
import { visit } from './support/visit'
import { content, pathOf, settings } from './support/content'

const { nav, ui } = settings
test.use({ viewport: { width: 390, height: 844 } })

const openButton = (page: Page) => page.getByRole('button', { name: ui.open_menu })
const closeButton = (page: Page) => page.getByRole('button', { name: ui.close_menu })
const mobileNav = (page: Page) => page.getByRole('navigation', { name: ui.mobile_nav_label })

test('the desktop links give way to a menu button', async ({ page }) => {
  await visit(page, '/')
  await expect(page.getByRole('navigation', { name: ui.main_nav_label })).toBeHidden()
  await expect(openButton(page)).toHaveAttribute('aria-expanded', 'false')
  await expect(mobileNav(page)).toBeHidden()
})

test('the menu button opens the mobile menu with its own links', async ({ page }) => {
  await visit(page, '/')
  await openButton(page).click()
  await expect(closeButton(page)).toHaveAttribute('aria-expanded', 'true')
  const controlled = await closeButton(page).getAttribute('aria-controls')
  await expect(page.locator(`#${controlled}`)).toBeVisible()

  await expect(mobileNav(page).getByRole('link')).toHaveText(nav.mobile_links.map((link) => link.label))
  for (const link of nav.mobile_links) {
    await expect(mobileNav(page).getByRole('link', { name: link.label, exact: true })).toHaveAttribute('href', link.href)
  }
  await expect(mobileNav(page).getByRole('link', { name: nav.mobile_links[0]?.label, exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  )
})

test('choosing a link navigates and closes the menu', async ({ page }) => {
  const target = nav.mobile_links.find((link) => link.href !== '/')
  if (!target) throw new Error('the mobile menu has no link away from home')
  await visit(page, '/')
  await openButton(page).click()
  await mobileNav(page).getByRole('link', { name: target.label, exact: true }).click()
  await expect.poll(() => pathOf(page.url())).toBe(target.href)
  await expect(page).toHaveTitle(content.routes.find((route) => route.path === target.href)?.title ?? '')
  await expect(openButton(page)).toHaveAttribute('aria-expanded', 'false')
  await expect(mobileNav(page)).toBeHidden()
})

test('Escape closes the menu and returns focus to its button', async ({ page }) => {
  await visit(page, '/')
  await openButton(page).click()
  await expect(mobileNav(page)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(mobileNav(page)).toBeHidden()
  await expect(openButton(page)).toBeFocused()
})

test('a tap outside the menu closes it', async ({ page }) => {
  await visit(page, '/')
  await openButton(page).click()
  await expect(mobileNav(page)).toBeVisible()
  await page.mouse.click(195, 780)
  await expect(mobileNav(page)).toBeHidden()
  await expect(openButton(page)).toHaveAttribute('aria-expanded', 'false')
})
