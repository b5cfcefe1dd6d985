import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { visit } from './support/visit'

const blog = content.pages.blog

// The list's markup (hero, cards, the Read More links and the pages they open) is checked
// without a browser in tests-static/blog.spec.ts; what stays here needs layout.
test.describe('Blog list', () => {
  test('lays the articles out in two columns on desktop and one on phones', async ({ page }) => {
    await visit(page, '/blog')
    const articles = page.getByRole('region', { name: blog.articles.intro.title }).getByRole('article')
    const lefts = () => articles.evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)))
    expect(new Set(await lefts()).size).toBe(2)
    await page.setViewportSize({ width: 390, height: 844 })
    expect(new Set(await lefts()).size).toBe(1)
  })
})
