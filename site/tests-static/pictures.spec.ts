import { expect, test } from '@playwright/test'
import { articlePath, articles } from '../tests/support/articles'
import { content, html } from './support/built'
import { only } from './support/roles'

// The photos of the content (sitegen's images stage) as the server sends them. (Moved from the
// Chromium suite: tests/pictures.spec.ts keeps which source Chromium picks and loads, the cards'
// answers, and the lazy photo loading once scrolled to.)
const photoArticle = articles.find((a) => content.images[a.image])
const photoIndustry = content.pages.industries.industries.items.find((i) => content.images[i.image])

test.describe('Pictures', () => {
  test('an article photo is a picture with AVIF and WebP sources, its size, and loads first', () => {
    if (!photoArticle) throw new Error('no article has a photo')
    const picture = content.images[photoArticle.image]
    if (!picture) throw new Error('unreachable')
    const $ = html(articlePath(photoArticle))
    const image = only($, 'img', { name: photoArticle.image_alt })
    expect(image.attr('width')).toBe(String(picture.width))
    expect(image.attr('height')).toBe(String(picture.height))
    expect(image.attr('fetchpriority')).toBe('high')
    expect(image.attr('loading')).not.toBe('lazy')
    expect(image.parent().find('source').toArray().map((s) => s.attribs.type)).toEqual(['image/avif', 'image/webp'])
  })

  test('every page shares its own 1200x630 PNG card', () => {
    for (const path of ['/', articlePath(articles[0] ?? photoArticle!)]) {
      const card = content.cards[path]
      if (!card) throw new Error(`no social card for ${path}`)
      const $ = html(path)
      const meta = (key: string) => {
        const found = $(`meta[property="${key}"], meta[name="${key}"]`)
        expect(found, key).toHaveLength(1)
        return found.attr('content')
      }
      expect(meta('og:image')).toBe(`${content.settings.base_url}${card.src}`)
      expect(meta('og:image:type')).toBe(card.type)
      expect(meta('og:image:width')).toBe('1200')
      expect(meta('og:image:height')).toBe('630')
      expect(meta('og:image:alt')).toBe(card.alt)
      expect(meta('twitter:card')).toBe('summary_large_image')
    }
  })

  test('a photo further down the page loads lazily behind its blurred preview', () => {
    if (!photoIndustry) throw new Error('no industry has a photo')
    const $ = html('/industries')
    const image = only($, 'img', { name: photoIndustry.image_alt })
    expect(image.attr('loading')).toBe('lazy')
    const preview = image.closest('span').find('img[aria-hidden="true"]').first().attr('src')
    expect(preview).toMatch(/^data:image\/webp;base64,/)
  })
})
