import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const solutions = content.pages.solutions

const SOLUTIONS: [title: string, href: string][] = [
  ['AI-Powered Solutions', '/services/artificial-intelligence'],
  ['Cloud Transformation', '/services/cloud-services'],
  ['Data Intelligence', '/services/data-analytics'],
  ['Custom Software Development', '/services/software-engineering'],
]
const PLATFORMS = ['Enterprise Resource Planning', 'Customer Experience Platform', 'Digital Workplace', 'Security & Compliance']
const STEPS = ['Discovery & Strategy', 'Design & Planning', 'Development & Testing', 'Deployment & Support']

const hrefs = (links: import('@playwright/test').Locator) =>
  links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))

test.describe('Solutions page', () => {
  test('shows its sections in order', async ({ page }) => {
    await visit(page, '/solutions')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(solutions.hero.title)
    expect(await sectionHeadings(page)).toEqual([
      solutions.solutions.intro.title,
      solutions.platforms.intro.title,
      solutions.process.intro.title,
      solutions.testimonials.intro.title,
      solutions.cta.title,
    ])
  })

  test('the hero leads to /contact and /case-studies', async ({ page }) => {
    await visit(page, '/solutions')
    const hero = page.getByRole('main').locator('section').first()
    await expect(hero.getByRole('link', { name: 'Get Started Today' })).toHaveAttribute('href', '/contact')
    await expect(hero.getByRole('link', { name: 'View Success Stories' })).toHaveAttribute('href', '/case-studies')
  })

  test('shows the four core solutions with features, benefits and a link to their service', async ({ page }) => {
    await visit(page, '/solutions')
    const region = page.getByRole('region', { name: solutions.solutions.intro.title })
    const cards = region.getByRole('article')
    await expect(cards).toHaveCount(4)
    await expect(region.getByRole('heading', { level: 3 })).toHaveText(SOLUTIONS.map(([title]) => title))
    for (const [i, [, href]] of SOLUTIONS.entries()) {
      const card = cards.nth(i)
      const item = solutions.solutions.items[i]
      if (!item) throw new Error(`no solution ${i} in content`)
      await expect(card.getByRole('heading', { level: 4 })).toHaveText([
        solutions.solutions.features_label,
        solutions.solutions.benefits_label,
      ])
      await expect(card.getByRole('list').first().getByRole('listitem')).toHaveText(item.features)
      await expect(card.getByRole('list').nth(1).getByRole('listitem')).toHaveText(item.benefits)
      expect(item.features.length).toBeGreaterThan(0)
      expect(item.benefits.length).toBeGreaterThan(0)
      await expect(card.getByRole('link')).toHaveCount(1)
      await expect(card.getByRole('link', { name: item.link.label })).toHaveAttribute('href', href)
    }
  })

  test('shows four enterprise platforms with four features each', async ({ page }) => {
    await visit(page, '/solutions')
    const region = page.getByRole('region', { name: solutions.platforms.intro.title })
    const cards = region.getByRole('article')
    await expect(cards).toHaveCount(4)
    await expect(region.getByRole('heading', { level: 3 })).toHaveText(PLATFORMS)
    for (let i = 0; i < PLATFORMS.length; i++) {
      await expect(cards.nth(i).getByRole('listitem')).toHaveCount(4)
    }
  })

  test('shows the four-step process in order', async ({ page }) => {
    await visit(page, '/solutions')
    const region = page.getByRole('region', { name: solutions.process.intro.title })
    await expect(region.getByRole('listitem')).toHaveCount(4)
    await expect(region.getByRole('heading', { level: 3 })).toHaveText(STEPS)
  })

  test('shows three testimonials, each rated five stars, with author, role and company', async ({ page }) => {
    await visit(page, '/solutions')
    const region = page.getByRole('region', { name: solutions.testimonials.intro.title })
    const quotes = region.getByRole('figure')
    await expect(quotes).toHaveCount(3)
    await expect(region.getByRole('img', { name: 'Rated 5 out of 5' })).toHaveCount(3)
    for (const [i, item] of solutions.testimonials.items.entries()) {
      const quote = quotes.nth(i)
      await expect(quote.getByRole('blockquote')).toHaveText(item.quote)
      await expect(quote.getByText(item.author, { exact: true })).toBeVisible()
      await expect(quote.getByText(item.role, { exact: true })).toBeVisible()
      await expect(quote.getByText(item.company, { exact: true })).toBeVisible()
      // Five drawn stars, all filled.
      await expect(quote.getByRole('img').locator('svg')).toHaveCount(5)
    }
  })

  test('closes with Schedule Consultation and Explore All Services', async ({ page }) => {
    await visit(page, '/solutions')
    const cta = page.getByRole('region', { name: solutions.cta.title })
    await expect(cta.getByRole('link')).toHaveText(['Schedule Consultation', 'Explore All Services'])
    expect(await hrefs(cta.getByRole('link'))).toEqual(['/contact', '/services'])
  })
})
