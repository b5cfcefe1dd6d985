import { expect, test } from '@playwright/test'
import { authorOf, featured, latest } from './support/articles'
import { content } from './support/content'
import { scrollThrough } from './support/sections'
import { visit } from './support/visit'

// The page's markup (sections, search box, cards' texts and links, resources, the newsletter
// form) is checked without a browser in tests-static/insights.spec.ts; what stays here needs
// a browser: pictures loading and the grid's columns.

const insights = content.pages.insights

test.describe('Insights page', () => {
  // The cards' texts, links and alt texts are checked in tests-static/insights.spec.ts.
  test('features two articles with their author, date, reading time, category and pictures', async ({ page }) => {
    await visit(page, '/insights')
    const articles = page.getByRole('region', { name: insights.featured.intro.title }).getByRole('article')
    await expect(articles).toHaveCount(2)
    for (const [i, item] of featured.entries()) {
      const article = articles.nth(i)
      const image = article.getByRole('img', { name: item.image_alt })
      await image.scrollIntoViewIfNeeded()
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
      const avatar = article.locator(`img[src="${authorOf(item).avatar}"]`)
      expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    }
  })

  // The cards' texts, links and alt texts are checked in tests-static/insights.spec.ts.
  test('lists six latest articles of every kind in a grid', async ({ page }) => {
    await visit(page, '/insights')
    await scrollThrough(page)
    const articles = page.getByRole('region', { name: insights.latest.intro.title }).getByRole('article')
    await expect(articles).toHaveCount(6)
    for (const [i, item] of latest.entries()) {
      await expect(articles.nth(i).getByRole('img', { name: item.image_alt })).toBeVisible()
    }
    // Three columns on desktop: the first three cards share a row (once their staggered
    // reveal has settled).
    const rows = () =>
      articles.evaluateAll((cards) => new Set(cards.slice(0, 3).map((c) => Math.round(c.getBoundingClientRect().top))).size)
    await expect.poll(rows).toBe(1)
  })
})
