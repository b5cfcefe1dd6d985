import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { axeViolations, sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const blog = content.pages.blog

const CATEGORIES = ['Artificial Intelligence', 'Data Analytics', 'Cloud Services', 'Software Engineering']

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
    for (const [i, item] of blog.articles.items.entries()) {
      const article = articles.nth(i)
      expect(CATEGORIES).toContain(item.category)
      await expect(article.getByText(item.category, { exact: true })).toBeVisible()
      await expect(article.getByText(item.read_time, { exact: true })).toBeVisible()
      await expect(article.getByRole('heading', { level: 3 })).toHaveText(item.title)
      await expect(article.getByText(item.date, { exact: true })).toBeVisible()
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

  test('each Read More is a button named after its article that does nothing yet', async ({ page }) => {
    await visit(page, '/blog')
    const url = page.url()
    for (const item of blog.articles.items) {
      const button = page.getByRole('button', { name: `${blog.articles.read_more} ${item.title}`, exact: true })
      await expect(button).toHaveText(blog.articles.read_more)
      await expect(button).toHaveAttribute('type', 'button')
      await button.click()
      expect(page.url()).toBe(url)
    }
  })

  test('has no accessibility violations at 1440 and 390 px', async ({ browser }) => {
    test.slow()
    expect(await axeViolations(browser, '/blog')).toEqual([])
  })
})
