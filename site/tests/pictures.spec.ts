import { expect, test } from '@playwright/test'
import { articlePath, articles } from './support/articles'
import { content } from './support/content'
import { visit } from './support/visit'

// The photos of the content (sitegen's images stage): what a browser is given and what it picks.
const photoArticle = articles.find((a) => content.images[a.image])
const photoIndustry = content.pages.industries.industries.items.find((i) => content.images[i.image])

test.describe('Pictures', () => {
  test('an article photo is a picture with AVIF and WebP sources, its size, and loads first', async ({ page }) => {
    if (!photoArticle) throw new Error('no article has a photo')
    const picture = content.images[photoArticle.image]
    if (!picture) throw new Error('unreachable')
    await visit(page, articlePath(photoArticle))
    const image = page.getByRole('img', { name: photoArticle.image_alt })
    await expect(image).toHaveAttribute('width', String(picture.width))
    await expect(image).toHaveAttribute('height', String(picture.height))
    await expect(image).toHaveAttribute('fetchpriority', 'high')
    await expect(image).not.toHaveAttribute('loading', 'lazy')
    const types = await image.evaluate((img) =>
      [...(img.parentElement?.querySelectorAll('source') ?? [])].map((s) => s.getAttribute('type')),
    )
    expect(types).toEqual(['image/avif', 'image/webp'])
    // Chromium shows AVIF: it loads one of the AVIF files, fully.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).toMatch(/\/img\/.+\.avif$/)
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  })

  test('every page shares its own 1200x630 PNG card', async ({ page, request }) => {
    for (const path of ['/', articlePath(articles[0] ?? photoArticle!)]) {
      const card = content.cards[path]
      if (!card) throw new Error(`no social card for ${path}`)
      await visit(page, path)
      const meta = (key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`)
      await expect(meta('og:image')).toHaveAttribute('content', `${content.settings.base_url}${card.src}`)
      await expect(meta('og:image:type')).toHaveAttribute('content', card.type)
      await expect(meta('og:image:width')).toHaveAttribute('content', '1200')
      await expect(meta('og:image:height')).toHaveAttribute('content', '630')
      await expect(meta('og:image:alt')).toHaveAttribute('content', card.alt)
      await expect(meta('twitter:card')).toHaveAttribute('content', 'summary_large_image')
      const response = await request.get(card.src)
      expect(response.headers()['content-type']).toBe('image/png')
      expect((await response.body()).subarray(1, 4).toString()).toBe('PNG')
    }
  })

  test('a photo further down the page loads lazily behind its blurred preview', async ({ page }) => {
    if (!photoIndustry) throw new Error('no industry has a photo')
    await visit(page, '/industries')
    const image = page.getByRole('img', { name: photoIndustry.image_alt })
    await expect(image).toHaveAttribute('loading', 'lazy')
    const preview = await image.evaluate((img) => img.closest('span')?.querySelector('img[aria-hidden="true"]')?.getAttribute('src'))
    expect(preview).toMatch(/^data:image\/webp;base64,/)
    await image.scrollIntoViewIfNeeded()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  })
})
