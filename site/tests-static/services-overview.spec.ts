import { expect, test } from '@playwright/test'
import { content, html } from './support/built'
import { byRole, nameOf, only, sectionHeadings } from './support/roles'

// The services overview as the server sends it. (Moved from the Chromium suite: every check of
// tests/services-overview.spec.ts was of markup or of a plain link.)

const overview = content.pages.services
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))

/** The one page `href` leads to is built, with a main. */
function leadsToBuiltPage(href: string) {
  expect(byRole(html(href), 'main')).toHaveLength(1)
}

test.describe('Services overview', () => {
  test('shows the service cards, the process and the closing call, in order', () => {
    const $ = html('/services')
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([overview.hero.title])
    expect(sectionHeadings($)).toEqual([overview.categories.intro.title, 'Our Proven Process', overview.cta.title])
  })

  // The Explore links are plain links: their hrefs, and the page the third leads to.
  test('has a card per category with links to each sub-service and an explore button', () => {
    const $ = html('/services')
    const cards = byRole($, 'article', {}, only($, 'region', { name: overview.categories.intro.title }))
    expect(cards).toHaveLength(4)
    expect(names($, byRole($, 'heading', { level: 3 }, $(cards)))).toEqual([
      'Data Analytics',
      'Artificial Intelligence',
      'Cloud Services',
      'Software Engineering',
    ])
    for (const [i, category] of content.services.entries()) {
      const card = $(cards[i])
      const links = byRole($, 'link', {}, $(byRole($, 'list', {}, card)))
      expect(links.map((a) => a.attribs.href)).toEqual(category.sub_services.map((sub) => `/services/${category.slug}/${sub.slug}`))
      expect(only($, 'link', { name: /explore/i }, card).attr('href')).toBe(`/services/${category.slug}`)
    }
    const explore = only($, 'link', { name: /explore/i }, $(cards[2])).attr('href') ?? ''
    expect(explore).toMatch(/^\/services\/cloud-services\/?$/)
    leadsToBuiltPage(explore)
  })

  test('shows the four steps of the process', () => {
    const $ = html('/services')
    const steps = byRole($, 'listitem', {}, only($, 'region', { name: 'Our Proven Process' }))
    expect(steps).toHaveLength(4)
    expect(names($, byRole($, 'heading', { level: 3 }, $(steps)))).toEqual(['Discovery', 'Strategy', 'Implementation', 'Optimization'])
  })

  // View Success Stories is a plain link: its href, and that the page it leads to is built.
  test('closes with Schedule Consultation and View Success Stories', () => {
    const $ = html('/services')
    const cta = only($, 'region', { name: overview.cta.title })
    expect(only($, 'link', { name: 'Schedule Consultation' }, cta).attr('href')).toBe('/contact')
    const stories = only($, 'link', { name: 'View Success Stories' }, cta).attr('href') ?? ''
    expect(stories).toBe('/case-studies')
    leadsToBuiltPage(stories)
  })
})
