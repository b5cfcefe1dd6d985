import { expect, test } from '@playwright/test'
import { content, html } from './support/built'
import { byRole, hasExactText, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The Solutions page as the server sends it. (Moved from the Chromium suite: every check of
// tests/solutions.spec.ts was of markup.)

const solutions = content.pages.solutions
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))
const texts = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => textOf($, $(el)))

const SOLUTIONS: [title: string, href: string][] = [
  ['AI-Powered Solutions', '/services/artificial-intelligence'],
  ['Cloud Transformation', '/services/cloud-services'],
  ['Data Intelligence', '/services/data-analytics'],
  ['Custom Software Development', '/services/software-engineering'],
]
const PLATFORMS = ['Enterprise Resource Planning', 'Customer Experience Platform', 'Digital Workplace', 'Security & Compliance']
const STEPS = ['Discovery & Strategy', 'Design & Planning', 'Development & Testing', 'Deployment & Support']

test.describe('Solutions page', () => {
  test('shows its sections in order', () => {
    const $ = html('/solutions')
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([solutions.hero.title])
    expect(sectionHeadings($)).toEqual([
      solutions.solutions.intro.title,
      solutions.platforms.intro.title,
      solutions.process.intro.title,
      solutions.testimonials.intro.title,
      solutions.cta.title,
    ])
  })

  test('the hero leads to /contact and /case-studies', () => {
    const $ = html('/solutions')
    const hero = $('main section').first()
    expect(only($, 'link', { name: 'Get Started Today' }, hero).attr('href')).toBe('/contact')
    expect(only($, 'link', { name: 'View Success Stories' }, hero).attr('href')).toBe('/case-studies')
  })

  test('shows the four core solutions with features, benefits and a link to their service', () => {
    const $ = html('/solutions')
    const region = only($, 'region', { name: solutions.solutions.intro.title })
    const cards = byRole($, 'article', {}, region)
    expect(cards).toHaveLength(4)
    expect(names($, byRole($, 'heading', { level: 3 }, region))).toEqual(SOLUTIONS.map(([title]) => title))
    for (const [i, [, href]] of SOLUTIONS.entries()) {
      const card = $(cards[i])
      const item = solutions.solutions.items[i]
      if (!item) throw new Error(`no solution ${i} in content`)
      expect(names($, byRole($, 'heading', { level: 4 }, card))).toEqual([
        solutions.solutions.features_label,
        solutions.solutions.benefits_label,
      ])
      const lists = byRole($, 'list', {}, card)
      expect(texts($, byRole($, 'listitem', {}, $(lists[0])))).toEqual(item.features)
      expect(texts($, byRole($, 'listitem', {}, $(lists[1])))).toEqual(item.benefits)
      expect(item.features.length).toBeGreaterThan(0)
      expect(item.benefits.length).toBeGreaterThan(0)
      expect(byRole($, 'link', {}, card)).toHaveLength(1)
      expect(only($, 'link', { name: item.link.label }, card).attr('href')).toBe(href)
    }
  })

  test('shows four enterprise platforms with four features each', () => {
    const $ = html('/solutions')
    const region = only($, 'region', { name: solutions.platforms.intro.title })
    const cards = byRole($, 'article', {}, region)
    expect(cards).toHaveLength(4)
    expect(names($, byRole($, 'heading', { level: 3 }, region))).toEqual(PLATFORMS)
    for (let i = 0; i < PLATFORMS.length; i++) {
      expect(byRole($, 'listitem', {}, $(cards[i]))).toHaveLength(4)
    }
  })

  test('shows the four-step process in order', () => {
    const $ = html('/solutions')
    const region = only($, 'region', { name: solutions.process.intro.title })
    expect(byRole($, 'listitem', {}, region)).toHaveLength(4)
    expect(names($, byRole($, 'heading', { level: 3 }, region))).toEqual(STEPS)
  })

  test('shows three testimonials, each rated five stars, with author, role and company', () => {
    const $ = html('/solutions')
    const region = only($, 'region', { name: solutions.testimonials.intro.title })
    const quotes = byRole($, 'figure', {}, region)
    expect(quotes).toHaveLength(3)
    expect(byRole($, 'img', { name: 'Rated 5 out of 5' }, region)).toHaveLength(3)
    for (const [i, item] of solutions.testimonials.items.entries()) {
      const quote = $(quotes[i])
      expect(texts($, byRole($, 'blockquote', {}, quote))).toEqual([item.quote])
      for (const text of [item.author, item.role, item.company]) expect(hasExactText($, quote, text), text).toBe(true)
      // Five drawn stars, all filled.
      expect($(byRole($, 'img', {}, quote)).find('svg')).toHaveLength(5)
    }
  })

  test('closes with Schedule Consultation and Explore All Services', () => {
    const $ = html('/solutions')
    const links = byRole($, 'link', {}, only($, 'region', { name: solutions.cta.title }))
    expect(texts($, links)).toEqual(['Schedule Consultation', 'Explore All Services'])
    expect(links.map((a) => a.attribs.href)).toEqual(['/contact', '/services'])
  })
})
