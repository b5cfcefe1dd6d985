import { expect, test } from '@playwright/test'
import { articlePath, articles } from './support/articles'
import { content } from './support/content'
import { visit } from './support/visit'

// The photos of the content (sitegen's images stage): what a browser is given and what it picks.
// Their markup (sizes, priority, sources, social-card meta, lazy loading, previews) is checked
// without a browser in tests-static/pictures.spec.ts; what stays here is what Chromium loads and
// what the server answers.
const photoArticle = articles.find((a) => content.images[a.image])
const photoIndustry = content.pages.industries.industries.items.find((i) => content.images[i.image])

test.describe('Pictures', () => {
  // Its size, priority and sources are checked in tests-static/pictures.spec.ts.
  test('an article photo is a picture with AVIF and WebP sources, its size, and loads first', async ({ page }) => {
    if (!photoArticle) throw new Error('no article has a photo')
    await visit(page, articlePath(photoArticle))
    const image = page.getByRole('img', { name: photoArticle.image_alt })
    // Chromium shows AVIF: it loads one of the AVIF files, fully.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).toMatch(/\/img\/.+\.avif$/)
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  })

  // The pages' meta tags are checked in tests-static/pictures.spec.ts; here, what the server
  // answers for each card (no browser is started for it).
  test('every page shares its own 1200x630 PNG card', async ({ request }) => {
    for (const path of ['/', articlePath(articles[0] ?? photoArticle!)]) {
      const card = content.cards[path]
      if (!card) throw new Error(`no social card for ${path}`)
      const response = await request.get(card.src)
      expect(response.headers()['content-type']).toBe('image/png')
      expect((await response.body()).subarray(1, 4).toString()).toBe('PNG')
    }
  })

  // Its lazy loading attribute and blurred preview are checked in tests-static/pictures.spec.ts.
  test('a photo further down the page loads lazily behind its blurred preview', async ({ page }) => {
    if (!photoIndustry) throw new Error('no industry has a photo')
    await visit(page, '/industries')
    const image = page.getByRole('img', { name: photoIndustry.image_alt })
    await image.scrollIntoViewIfNeeded()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  })
})
