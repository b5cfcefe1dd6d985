import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const overview = content.pages.services

test.describe('Services overview', () => {
  test('shows the service cards, the process and the closing call, in order', async ({ page }) => {
    await visit(page, '/services')
    await expect(page.getByRole('heading', { level: 1 })).toHaveAccessibleName(overview.hero.title)
    expect(await sectionHeadings(page)).toEqual([overview.categories.intro.title, 'Our Proven Process', overview.cta.title])
  })

  test('has a card per category with links to each sub-service and an explore button', async ({ page }) => {
    await visit(page, '/services')
    const cards = page.getByRole('region', { name: overview.categories.intro.title }).getByRole('article')
    await expect(cards).toHaveCount(4)
    await expect(cards.getByRole('heading', { level: 3 })).toHaveText([
      'Data Analytics',
      'Artificial Intelligence',
      'Cloud Services',
      'Software Engineering',
    ])
    for (const [i, category] of content.services.entries()) {
      const card = cards.nth(i)
      const links = card.getByRole('list').getByRole('link')
      const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))
      expect(hrefs).toEqual(category.sub_services.map((sub) => `/services/${category.slug}/${sub.slug}`))
      await expect(card.getByRole('link', { name: /explore/i })).toHaveAttribute('href', `/services/${category.slug}`)
    }
    await cards.nth(2).getByRole('link', { name: /explore/i }).click()
    await expect(page).toHaveURL(/\/services\/cloud-services\/?$/)
  })

  test('shows the four steps of the process', async ({ page }) => {
    await visit(page, '/services')
    const steps = page.getByRole('region', { name: 'Our Proven Process' }).getByRole('listitem')
    await expect(steps).toHaveCount(4)
    await expect(steps.getByRole('heading', { level: 3 })).toHaveText(['Discovery', 'Strategy', 'Implementation', 'Optimization'])
  })

  test('closes with Schedule Consultation and View Success Stories', async ({ page }) => {
    await visit(page, '/services')
    const cta = page.getByRole('region', { name: overview.cta.title })
    await expect(cta.getByRole('link', { name: 'Schedule Consultation' })).toHaveAttribute('href', '/contact')
    await expect(cta.getByRole('link', { name: 'View Success Stories' })).toHaveAttribute('href', '/case-studies')
    await cta.getByRole('link', { name: 'View Success Stories' }).click()
    await expect(page).toHaveURL(/\/case-studies\/?$/)
  })
})
