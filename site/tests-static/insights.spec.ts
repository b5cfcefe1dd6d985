import { expect, test } from '@playwright/test'
import { contract } from '../schema/contract'
import { articlePath, authorOf, categoryName, featured, latest, readTime, typeLabel } from '../tests/support/articles'
import { content, html } from './support/built'
import { byRole, hasExactText, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The Insights page as the server sends it. (Moved from the Chromium suite: tests/insights.spec.ts
// keeps the pictures loading and the grid's columns, which need a browser.)

const insights = content.pages.insights
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))

const RESOURCES: [kind: string, downloads: string][] = [
  ['Whitepaper', '2.3K'],
  ['Guide', '1.8K'],
  ['Checklist', '3.1K'],
  ['Webinar', '945'],
]

/** Months the articles may be dated in. */
const DATED = /^(February|March) \d{1,2}, 2024$/

test.describe('Insights page', () => {
  test('shows its sections in order', () => {
    const $ = html('/insights')
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([insights.hero.title])
    expect(sectionHeadings($)).toEqual([
      insights.featured.intro.title,
      insights.latest.intro.title,
      insights.resources.intro.title,
      insights.newsletter.intro.title,
    ])
  })

  test('the hero offers a labelled search box, a Filter and the newsletter link', () => {
    const $ = html('/insights')
    const search = only($, 'search', { name: insights.search.label })
    const box = only($, 'searchbox', { name: insights.search.label }, search)
    expect(box.attr('placeholder')).toBe('Search articles, topics, authors...')
    expect(hasExactText($, $('body'), insights.search.filter_label)).toBe(true)
    expect(only($, 'link', { name: 'Subscribe to Newsletter' }).attr('href')).toBe('/contact')
  })

  // That the pictures and avatars have loaded is the Chromium test of the same name's.
  test('features two articles with their author, date, reading time, category and pictures', () => {
    const $ = html('/insights')
    const articles = byRole($, 'article', {}, only($, 'region', { name: insights.featured.intro.title }))
    expect(articles).toHaveLength(2)
    for (const [i, item] of featured.entries()) {
      const article = $(articles[i])
      const author = authorOf(item)
      const heading = byRole($, 'heading', { level: 3 }, article)
      expect(names($, heading)).toEqual([item.title])
      expect(byRole($, 'link', {}, $(heading)).map((a) => a.attribs.href)).toEqual([articlePath(item)])
      expect(textOf($, article)).toContain(item.excerpt)
      for (const text of [author.name, author.role, readTime(item), categoryName(item.category), insights.featured.featured_label]) {
        expect(hasExactText($, article, text), text).toBe(true)
      }
      expect(item.featured).toBe(true)
      expect(hasExactText($, article, item.date_display)).toBe(true)
      expect(item.date_display).toMatch(DATED)
      only($, 'img', { name: item.image_alt }, article)
      // The avatar is decorative: the author's name is written beside it.
      const avatar = article.find(`img[src="${author.avatar}"]`)
      expect(avatar).toHaveLength(1)
      expect(avatar.attr('alt')).toBe('')
    }
  })

  // That the pictures show and the first three cards share a row is the Chromium test of the same name's.
  test('lists six latest articles of every kind in a grid', () => {
    const $ = html('/insights')
    const articles = byRole($, 'article', {}, only($, 'region', { name: insights.latest.intro.title }))
    expect(articles).toHaveLength(6)
    const kinds = new Set(latest.map((item) => item.type))
    expect([...kinds].sort()).toEqual(['article', 'case-study', 'technical', 'whitepaper'])
    for (const [i, item] of latest.entries()) {
      const article = $(articles[i])
      const heading = byRole($, 'heading', { level: 3 }, article)
      expect(names($, heading)).toEqual([item.title])
      expect(byRole($, 'link', {}, $(heading)).map((a) => a.attribs.href)).toEqual([articlePath(item)])
      for (const text of [typeLabel(item), authorOf(item).name, item.date_display]) {
        expect(hasExactText($, article, text), text).toBe(true)
      }
      expect(item.date_display).toMatch(DATED)
      only($, 'img', { name: item.image_alt }, article)
    }
  })

  test('offers four free resources with their download counts and no download action', () => {
    const $ = html('/insights')
    const region = only($, 'region', { name: insights.resources.intro.title })
    const cards = byRole($, 'article', {}, region)
    expect(cards).toHaveLength(4)
    for (const [i, [kind, count]] of RESOURCES.entries()) {
      expect(hasExactText($, $(cards[i]), kind)).toBe(true)
      expect(textOf($, $(cards[i]))).toContain(`${count} ${insights.resources.downloads_label}`)
    }
    expect(textOf($, $(cards[3]))).toContain('60 minutes')
    expect(byRole($, 'link', {}, region)).toHaveLength(0)
    expect(byRole($, 'button', {}, region)).toHaveLength(0)
  })

  test('the newsletter block is a form posting a labelled email box to the contact service', () => {
    const $ = html('/insights')
    const region = only($, 'region', { name: insights.newsletter.intro.title })
    expect(textOf($, region)).toContain('15,000+ professionals')
    expect(textOf($, region)).toContain('weekly digest')
    const form = only($, 'form', { name: insights.newsletter.intro.title }, region)
    expect(form.attr('method')).toBe('post')
    expect(form.attr('action')).toMatch(new RegExp(`${contract.newsletter.path}$`))
    const email = only($, 'textbox', { name: insights.newsletter.email_label }, form)
    expect(email.attr('type')).toBe('email')
    expect(email.attr('name')).toBe(contract.newsletter.fields.email.name)
    expect(email.is('[required]')).toBe(true)
    expect(only($, 'button', { name: 'Subscribe Now' }, form).attr('type')).toBe('submit')
    expect(textOf($, form)).toContain(content.forms.newsletter.consent.text)
  })
})
