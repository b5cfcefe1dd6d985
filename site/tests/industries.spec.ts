import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { scrollThrough } from './support/sections'
import { visit } from './support/visit'

const industries = content.pages.industries

// The page's markup (sections, links, texts, counts, alt texts) is checked without a browser in
// tests-static/industries.spec.ts; what stays here needs layout or loaded images.
test.describe('Industries page', () => {
  // The statistics' terms and figures are checked in tests-static/industries.spec.ts.
  test('shows the four statistics of the spec in one row on desktop', async ({ page }) => {
    await visit(page, '/industries')
    const main = page.getByRole('main')
    await expect(main.getByRole('definition')).toHaveCount(4)
    // One row once any reveal has settled.
    const rows = () =>
      main.getByRole('definition').evaluateAll((dds) => new Set(dds.map((d) => Math.round(d.getBoundingClientRect().top))).size)
    await expect.poll(rows).toBe(1)
  })

  // The blocks' headings, texts, solutions, links and alt texts are checked in
  // tests-static/industries.spec.ts; here, that each illustration shows and has loaded.
  test('shows eight industries, each with four key solutions, an illustration and a link to /contact', async ({ page }) => {
    await visit(page, '/industries')
    await scrollThrough(page)
    const blocks = page.getByRole('region', { name: industries.industries.intro.title }).getByRole('article')
    await expect(blocks).toHaveCount(8)
    for (const [i, item] of industries.industries.items.entries()) {
      const image = blocks.nth(i).getByRole('img', { name: item.image_alt })
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
})
