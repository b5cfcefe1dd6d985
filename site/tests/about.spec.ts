import { expect, test } from '@playwright/test'
import { visit } from './support/visit'

// The page's markup (sections, timeline, logos, cases, team, links) is checked without a browser
// in tests-static/about.spec.ts; what stays here needs a browser: scrolling and the reveal.
test.describe('About page', () => {
  // The links' targets and the section's name are checked in tests-static/about.spec.ts.
  test('Work With Us leads to the Join Our Mission section, and from there to contact', async ({ page }) => {
    await visit(page, '/about')
    await page.getByRole('main').getByRole('link', { name: 'Work With Us' }).first().click()
    await expect(page).toHaveURL(/\/about\/?#join-our-mission$/)
    const join = page.locator('#join-our-mission')
    await expect(join).toBeInViewport()
  })

  test('sections fade in as they scroll into view', async ({ page }) => {
    await visit(page, '/about')
    const team = page.getByRole('region', { name: 'Leadership Team' })
    const intro = team.locator('[data-reveal]').first()
    await expect(intro).toHaveCSS('opacity', '0')
    await team.getByRole('heading', { level: 2 }).scrollIntoViewIfNeeded()
    await expect(intro).toHaveCSS('opacity', '1')
  })
})
