import { expect, test } from '@playwright/test'
import { articlePath, blogList, categoryName, readTime } from './support/articles'
import { content } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const blog = content.pages.blog

// One card per service category, in the categories' order.
const CATEGORIES = content.services.map((c) => c.name)

test.describe('Blog list', () => {
  test('shows the hero and the list of articles', async ({ page }) => {
    await visit(page, '/blog')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(blog.hero.title)
    expect(await sectionHeadings(page)).toEqual([blog.articles.intro.title])
  })

  test('shows four articles with category, read time, title, date and excerpt', async ({ page }) => {
    await visit(page, '/blog')
    const articles = page.getByRole('region', { name: blog.articles.intro.title }).getByRole('article')
    await expect(articles).toHaveCount(4)
    // One article per category: the newest of each.
    expect(blogList.map((item) => categoryName(item.category))).toEqual(CATEGORIES)
    for (const [i, item] of blogList.entries()) {
      const article = articles.nth(i)
      await expect(article.getByText(categoryName(item.category), { exact: true })).toBeVisible()
      await expect(article.getByText(readTime(item), { exact: true })).toBeVisible()
      await expect(article.getByRole('heading', { level: 3 })).toHaveText(item.title)
      await expect(article.getByText(item.date_display, { exact: true })).toBeVisible()
      await expect(article.getByText(item.excerpt)).toBeVisible()
    }
  })

  test('lays the articles out in two columns on desktop and one on phones', async ({ page }) => {
    await visit(page, '/blog')
    const articles = page.getByRole('region', { name: blog.articles.intro.title }).getByRole('article')
    const lefts = () => articles.evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)))
    expect(new Set(await lefts()).size).toBe(2)
    await page.setViewportSize({ width: 390, height: 844 })
    expect(new Set(await lefts()).size).toBe(1)
  })

  test('each Read More is a link named after its article that opens it', async ({ page }) => {
    for (const item of blogList) {
      await visit(page, '/blog')
      const link = page.getByRole('link', { name: `${blog.articles.read_more} ${item.title}`, exact: true })
      await expect(link).toHaveText(blog.articles.read_more)
      await expect(link).toHaveAttribute('href', articlePath(item))
      await link.click()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(item.title)
    }
  })
})
