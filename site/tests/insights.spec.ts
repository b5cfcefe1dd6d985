import { expect, test } from '@playwright/test'
import { articlePath, authorOf, categoryName, featured, latest, readTime, typeLabel } from './support/articles'
import { contract } from '../schema/contract'
import { content } from './support/content'
import { scrollThrough, sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const insights = content.pages.insights

const RESOURCES: [kind: string, downloads: string][] = [
  ['Whitepaper', '2.3K'],
  ['Guide', '1.8K'],
  ['Checklist', '3.1K'],
  ['Webinar', '945'],
]

/** Months the articles may be dated in. */
const DATED = /^(February|March) \d{1,2}, 2024$/

test.describe('Insights page', () => {
  test('shows its sections in order', async ({ page }) => {
    await visit(page, '/insights')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(insights.hero.title)
    expect(await sectionHeadings(page)).toEqual([
      insights.featured.intro.title,
      insights.latest.intro.title,
      insights.resources.intro.title,
      insights.newsletter.intro.title,
    ])
  })

  test('the hero offers a labelled search box, a Filter and the newsletter link', async ({ page }) => {
    await visit(page, '/insights')
    const search = page.getByRole('search', { name: insights.search.label })
    const box = search.getByRole('searchbox', { name: insights.search.label })
    await expect(box).toHaveAttribute('placeholder', 'Search articles, topics, authors...')
    await expect(page.getByText(insights.search.filter_label, { exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Subscribe to Newsletter' })).toHaveAttribute('href', '/contact')
  })

  test('features two articles with their author, date, reading time, category and pictures', async ({ page }) => {
    await visit(page, '/insights')
    const region = page.getByRole('region', { name: insights.featured.intro.title })
    const articles = region.getByRole('article')
    await expect(articles).toHaveCount(2)
    for (const [i, item] of featured.entries()) {
      const article = articles.nth(i)
      const author = authorOf(item)
      await expect(article.getByRole('heading', { level: 3 })).toHaveText(item.title)
      await expect(article.getByRole('heading', { level: 3 }).getByRole('link')).toHaveAttribute('href', articlePath(item))
      await expect(article.getByText(item.excerpt)).toBeVisible()
      await expect(article.getByText(author.name, { exact: true })).toBeVisible()
      await expect(article.getByText(author.role, { exact: true })).toBeVisible()
      await expect(article.getByText(readTime(item), { exact: true })).toBeVisible()
      await expect(article.getByText(categoryName(item.category), { exact: true })).toBeVisible()
      await expect(article.getByText(insights.featured.featured_label, { exact: true })).toBeVisible()
      expect(item.featured).toBe(true)
      await expect(article.getByText(item.date_display, { exact: true })).toBeVisible()
      expect(item.date_display).toMatch(DATED)
      const image = article.getByRole('img', { name: item.image_alt })
      await image.scrollIntoViewIfNeeded()
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
      // The avatar is decorative: the author's name is written beside it.
      const avatar = article.locator(`img[src="${author.avatar}"]`)
      await expect(avatar).toHaveAttribute('alt', '')
      expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    }
  })

  test('lists six latest articles of every kind in a grid', async ({ page }) => {
    await visit(page, '/insights')
    await scrollThrough(page)
    const region = page.getByRole('region', { name: insights.latest.intro.title })
    const articles = region.getByRole('article')
    await expect(articles).toHaveCount(6)
    const kinds = new Set(latest.map((item) => item.type))
    expect([...kinds].sort()).toEqual(['article', 'case-study', 'technical', 'whitepaper'])
    for (const [i, item] of latest.entries()) {
      const article = articles.nth(i)
      await expect(article.getByRole('heading', { level: 3 })).toHaveText(item.title)
      await expect(article.getByRole('heading', { level: 3 }).getByRole('link')).toHaveAttribute('href', articlePath(item))
      await expect(article.getByText(typeLabel(item), { exact: true })).toBeVisible()
      await expect(article.getByText(authorOf(item).name, { exact: true })).toBeVisible()
      await expect(article.getByText(item.date_display, { exact: true })).toBeVisible()
      expect(item.date_display).toMatch(DATED)
      await expect(article.getByRole('img', { name: item.image_alt })).toBeVisible()
    }
    // Three columns on desktop: the first three cards share a row.
    const tops = await articles.evaluateAll((cards) => cards.slice(0, 3).map((c) => Math.round(c.getBoundingClientRect().top)))
    expect(new Set(tops).size).toBe(1)
  })

  test('offers four free resources with their download counts and no download action', async ({ page }) => {
    await visit(page, '/insights')
    const region = page.getByRole('region', { name: insights.resources.intro.title })
    const cards = region.getByRole('article')
    await expect(cards).toHaveCount(4)
    for (const [i, [kind, count]] of RESOURCES.entries()) {
      await expect(cards.nth(i).getByText(kind, { exact: true })).toBeVisible()
      await expect(cards.nth(i)).toContainText(`${count} ${insights.resources.downloads_label}`)
    }
    await expect(cards.nth(3)).toContainText('60 minutes')
    await expect(region.getByRole('link')).toHaveCount(0)
    await expect(region.getByRole('button')).toHaveCount(0)
  })

  test('the newsletter block is a form posting a labelled email box to the contact service', async ({ page }) => {
    await visit(page, '/insights')
    const region = page.getByRole('region', { name: insights.newsletter.intro.title })
    await expect(region).toContainText('15,000+ professionals')
    await expect(region).toContainText('weekly digest')
    const form = region.getByRole('form', { name: insights.newsletter.intro.title })
    await expect(form).toHaveAttribute('method', 'post')
    await expect(form).toHaveAttribute('action', new RegExp(`${contract.newsletter.path}$`))
    const email = form.getByRole('textbox', { name: insights.newsletter.email_label })
    await expect(email).toHaveAttribute('type', 'email')
    await expect(email).toHaveAttribute('name', contract.newsletter.fields.email.name)
    await expect(email).toHaveAttribute('required', '')
    await expect(form.getByRole('button', { name: 'Subscribe Now' })).toHaveAttribute('type', 'submit')
    await expect(form).toContainText(content.forms.newsletter.consent.text)
  })
})
