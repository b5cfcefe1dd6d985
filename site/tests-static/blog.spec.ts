import { expect, test } from '@playwright/test'
import { articlePath, blogList, categoryName, readTime } from '../tests/support/articles'
import { content, html } from './support/built'
import { byRole, hasExactText, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The blog list as the server sends it. (Moved from the Chromium suite: tests/blog.spec.ts
// keeps the columns, which need a browser.)

const blog = content.pages.blog
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))

// One card per service category, in the categories' order.
const CATEGORIES = content.services.map((c) => c.name)

test.describe('Blog list', () => {
  test('shows the hero and the list of articles', () => {
    const $ = html('/blog')
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([blog.hero.title])
    expect(sectionHeadings($)).toEqual([blog.articles.intro.title])
  })

  test('shows four articles with category, read time, title, date and excerpt', () => {
    const $ = html('/blog')
    const articles = byRole($, 'article', {}, only($, 'region', { name: blog.articles.intro.title }))
    expect(articles).toHaveLength(4)
    // One article per category: the newest of each.
    expect(blogList.map((item) => categoryName(item.category))).toEqual(CATEGORIES)
    for (const [i, item] of blogList.entries()) {
      const article = $(articles[i])
      for (const text of [categoryName(item.category), readTime(item), item.date_display]) {
        expect(hasExactText($, article, text), text).toBe(true)
      }
      expect(names($, byRole($, 'heading', { level: 3 }, article))).toEqual([item.title])
      expect(textOf($, article)).toContain(item.excerpt)
    }
  })

  // A plain link: its href, and the page it leads to, as the server sends it.
  test('each Read More is a link named after its article that opens it', () => {
    const $ = html('/blog')
    for (const item of blogList) {
      const link = only($, 'link', { name: `${blog.articles.read_more} ${item.title}` })
      expect(textOf($, link)).toBe(blog.articles.read_more)
      expect(link.attr('href')).toBe(articlePath(item))
      const target = html(articlePath(item))
      expect(names(target, byRole(target, 'heading', { level: 1 }))).toEqual([item.title])
    }
  })
})
