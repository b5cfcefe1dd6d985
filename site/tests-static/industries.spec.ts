import { expect, test } from '@playwright/test'
import { content, html } from './support/built'
import { byRole, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The Industries page as the server sends it. (Moved from the Chromium suite:
// tests/industries.spec.ts keeps the statistics' row, the illustrations loading and their
// alternating sides, which need a browser.)

const industries = content.pages.industries

const INDUSTRIES = [
  'Healthcare & Life Sciences',
  'Financial Services',
  'Retail & E-commerce',
  'Manufacturing',
  'Education',
  'Automotive',
  'Transportation & Logistics',
  'Real Estate',
]

const TECHNOLOGIES = [
  'Artificial Intelligence',
  'Machine Learning',
  'Cloud Computing',
  'IoT Integration',
  'Blockchain',
  'Data Analytics',
  'Computer Vision',
  'Natural Language Processing',
  'DevOps & CI/CD',
  'Cybersecurity',
  'Mobile Development',
  'Web Applications',
]

const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))

test.describe('Industries page', () => {
  test('shows its sections in order', () => {
    const $ = html('/industries')
    expect($('head > title').text()).toBe(industries.meta.title)
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([industries.hero.title])
    expect(sectionHeadings($)).toEqual([
      industries.industries.intro.title,
      industries.technologies.intro.title,
      industries.call_to_action.title,
    ])
  })

  test('the hero links to /contact', () => {
    const $ = html('/industries')
    const hero = $('main section').first()
    const links = byRole($, 'link', {}, hero)
    expect(links).toHaveLength(industries.hero.actions.length)
    expect(industries.hero.actions.length).toBeGreaterThan(0)
    for (const a of links) expect(a.attribs.href).toBe('/contact')
  })

  // The row they sit in on a desktop is the Chromium test of the same name's.
  test('shows the four statistics of the spec in one row on desktop', () => {
    const $ = html('/industries')
    const main = $('main')
    expect(byRole($, 'term', {}, main).map((el) => textOf($, $(el)))).toEqual([
      'Projects Delivered',
      'Industries Served',
      'Client Satisfaction',
      'Support Available',
    ])
    expect(byRole($, 'definition', {}, main).map((el) => textOf($, $(el)))).toEqual(['500+', '15+', '95%', '24/7'])
  })

  // That each illustration shows and has loaded is the Chromium test of the same name's.
  test('shows eight industries, each with four key solutions, an illustration and a link to /contact', () => {
    const $ = html('/industries')
    const region = only($, 'region', { name: industries.industries.intro.title })
    const blocks = byRole($, 'article', {}, region)
    expect(blocks).toHaveLength(8)
    expect(names($, byRole($, 'heading', { level: 3 }, region))).toEqual(INDUSTRIES)
    for (const [i, item] of industries.industries.items.entries()) {
      const block = $(blocks[i])
      expect(textOf($, block)).toContain(item.description)
      expect(names($, byRole($, 'heading', { level: 4 }, block))).toEqual(['Key Solutions'])
      expect(byRole($, 'listitem', {}, block)).toHaveLength(4)
      expect(only($, 'link', { name: 'Explore Solutions' }, block).attr('href')).toBe('/contact')
      only($, 'img', { name: item.image_alt }, block)
    }
  })

  test('shows the twelve technology tiles of the spec', () => {
    const $ = html('/industries')
    const region = only($, 'region', { name: industries.technologies.intro.title })
    expect(byRole($, 'listitem', {}, region)).toHaveLength(12)
    expect(names($, byRole($, 'heading', { level: 3 }, region))).toEqual(TECHNOLOGIES)
  })

  test('the closing call to action has two links to /contact', () => {
    const $ = html('/industries')
    const cta = only($, 'region', { name: industries.call_to_action.title })
    expect(byRole($, 'link', {}, cta).map((a) => a.attribs.href)).toEqual(['/contact', '/contact'])
  })
})
