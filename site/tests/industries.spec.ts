import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { scrollThrough, sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const industries = content.pages.industries

const INDUSTRIES = [
  'Healthcare & Life Sciences',
  'Financial Services',
  'Retail & E-commerce',
  'Manufacturing',
  'Education',
  'Automotive',
  'Transportation & Logistics',
  'Real Estate',
]

const TECHNOLOGIES = [
  'Artificial Intelligence',
  'Machine Learning',
  'Cloud Computing',
  'IoT Integration',
  'Blockchain',
  'Data Analytics',
  'Computer Vision',
  'Natural Language Processing',
  'DevOps & CI/CD',
  'Cybersecurity',
  'Mobile Development',
  'Web Applications',
]

test.describe('Industries page', () => {
  test('shows its sections in order', async ({ page }) => {
    await visit(page, '/industries')
    await expect(page).toHaveTitle(industries.meta.title)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(industries.hero.title)
    expect(await sectionHeadings(page)).toEqual([
      industries.industries.intro.title,
      industries.technologies.intro.title,
      industries.call_to_action.title,
    ])
  })

  test('the hero links to /contact', async ({ page }) => {
    await visit(page, '/industries')
    const hero = page.getByRole('main').locator('section').first()
    const links = hero.getByRole('link')
    await expect(links).toHaveCount(industries.hero.actions.length)
    expect(industries.hero.actions.length).toBeGreaterThan(0)
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      expect(href).toBe('/contact')
    }
  })

  test('shows the four statistics of the spec in one row on desktop', async ({ page }) => {
    await visit(page, '/industries')
    const main = page.getByRole('main')
    await expect(main.getByRole('term')).toHaveText([
      'Projects Delivered',
      'Industries Served',
      'Client Satisfaction',
      'Support Available',
    ])
    await expect(main.getByRole('definition')).toHaveText(['500+', '15+', '95%', '24/7'])
    const tops = await main.getByRole('definition').evaluateAll((dds) => dds.map((d) => Math.round(d.getBoundingClientRect().top)))
    expect(new Set(tops).size).toBe(1)
  })

  test('shows eight industries, each with four key solutions, an illustration and a link to /contact', async ({ page }) => {
    await visit(page, '/industries')
    await scrollThrough(page)
    const region = page.getByRole('region', { name: industries.industries.intro.title })
    const blocks = region.getByRole('article')
    await expect(blocks).toHaveCount(8)
    await expect(region.getByRole('heading', { level: 3 })).toHaveText(INDUSTRIES)
    for (const [i, item] of industries.industries.items.entries()) {
      const block = blocks.nth(i)
      await expect(block.getByText(item.description)).toBeVisible()
      await expect(block.getByRole('heading', { level: 4 })).toHaveText('Key Solutions')
      await expect(block.getByRole('listitem')).toHaveCount(4)
      await expect(block.getByRole('link', { name: 'Explore Solutions' })).toHaveAttribute('href', '/contact')
      const image = block.getByRole('img', { name: item.image_alt })
      await expect(image).toBeVisible()
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    }
  })

  test('alternates the side of the illustration on desktop and stacks on phones', async ({ page }) => {
    await visit(page, '/industries')
    const blocks = page.getByRole('region', { name: industries.industries.intro.title }).getByRole('article')
    const imageOnLeft = async (i: number) => {
      const block = blocks.nth(i)
      const image = await block.getByRole('img').boundingBox()
      const title = await block.getByRole('heading', { level: 3 }).boundingBox()
      if (!image || !title) throw new Error(`block ${i} is not laid out`)
      return image.x < title.x
    }
    expect(await Promise.all([0, 1, 2, 3].map(imageOnLeft))).toEqual([false, true, false, true])

    await page.setViewportSize({ width: 390, height: 844 })
    const block = blocks.nth(1)
    const image = await block.getByRole('img').boundingBox()
    const title = await block.getByRole('heading', { level: 3 }).boundingBox()
    expect(image && title && image.y > title.y).toBe(true)
  })

  test('shows the twelve technology tiles of the spec', async ({ page }) => {
    await visit(page, '/industries')
    const region = page.getByRole('region', { name: industries.technologies.intro.title })
    await expect(region.getByRole('listitem')).toHaveCount(12)
    await expect(region.getByRole('heading', { level: 3 })).toHaveText(TECHNOLOGIES)
  })

  test('the closing call to action has two links to /contact', async ({ page }) => {
    await visit(page, '/industries')
    const cta = page.getByRole('region', { name: industries.call_to_action.title })
    const links = cta.getByRole('link')
    await expect(links).toHaveCount(2)
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['/contact', '/contact'])
  })
})
