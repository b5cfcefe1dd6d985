import { expect, test } from '@playwright/test'
import { content, html } from './support/built'
import { byRole, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The home page as the server sends it. (Moved from the Chromium suite: tests/home.spec.ts keeps
// the form's placement, the typing animation, the FAQ's behaviour and the scroll reveal.)

const home = content.pages.home
const phrase = 'End-to-End Cloud Services'
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))

/** The one page `href` leads to is built, with a main. */
function leadsToBuiltPage(href: string) {
  expect(byRole(html(href), 'main')).toHaveLength(1)
}

test.describe('Home page', () => {
  test('shows its sections in order', () => {
    const $ = html('/')
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([home.hero.title])
    expect(sectionHeadings($)).toEqual([
      'Our Technology Stack',
      'Our Platform Partnerships',
      'Why engineering teams love us',
      home.faq.intro.title,
      'Trusted by industry leaders',
      'Get in Touch',
      home.cta.title,
    ])
    expect(home.cta.title).toMatch(/^Ready to ship faster/)
  })

  // The cards are plain links: their hrefs, and the page Cloud Services leads to.
  test('technology stack cards each lead to their category page', () => {
    const $ = html('/')
    const section = only($, 'region', { name: 'Our Technology Stack' })
    const items = byRole($, 'listitem', {}, section).filter((li) => byRole($, 'heading', { level: 3 }, $(li)).length > 0)
    expect(items).toHaveLength(4)
    expect(byRole($, 'link', {}, section).map((a) => a.attribs.href)).toEqual([
      '/services/data-analytics',
      '/services/artificial-intelligence',
      '/services/cloud-services',
      '/services/software-engineering',
    ])
    const cloud = only($, 'link', { name: /Cloud Services/ }, section).attr('href') ?? ''
    expect(cloud).toMatch(/^\/services\/cloud-services\/?$/)
    leadsToBuiltPage(cloud)
  })

  test('shows the eight platform partners', () => {
    const $ = html('/')
    const logos = byRole($, 'img', {}, only($, 'region', { name: 'Our Platform Partnerships' }))
    expect(logos.map((img) => img.attribs.alt)).toEqual([
      'AWS',
      'Microsoft',
      'Adobe',
      'Salesforce',
      'Google Cloud',
      'Snowflake',
      'Stripe',
      'Open edX',
    ])
  })

  test('shows four benefit tiles and the four headline figures', () => {
    const $ = html('/')
    const benefits = only($, 'region', { name: 'Why engineering teams love us' })
    expect(byRole($, 'heading', { level: 3 }, benefits)).toHaveLength(4)
    const stats = only($, 'region', { name: 'Trusted by industry leaders' })
    expect(byRole($, 'definition', {}, stats).map((dd) => textOf($, $(dd)))).toEqual(['5K+', '99.9%', '24/7', '150+'])
  })

  // The calls to action are plain links: their hrefs, and the page the first leads to.
  test('its calls to action lead to the contact page', () => {
    const $ = html('/')
    const main = $('main')
    for (const name of [/Talk to an Expert/i, /Book a demo/i, /Start for free/i]) {
      expect(only($, 'link', { name }, main).attr('href')).toBe('/contact')
    }
    leadsToBuiltPage(only($, 'link', { name: /Talk to an Expert/i }, main).attr('href') ?? '')
  })
})

test.describe('Typing headline', () => {
  // What a browser without JavaScript shows is the server's HTML.
  test('the full phrase is in the page without JavaScript', () => {
    const $ = html('/')
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([home.hero.title])
    // The animated text as read (it is drawn with non-breaking hyphens).
    expect($('h1 [data-typing]').text().replaceAll('\u2011', '-')).toBe(phrase)
  })
})

test.describe('FAQ', () => {
  test('has six questions on the topics visitors ask about', () => {
    const $ = html('/')
    const section = only($, 'region', { name: home.faq.intro.title })
    const questions = section.find('summary').toArray()
    expect(questions).toHaveLength(6)
    const topics = [/industr/i, /how long|duration/i, /pric/i, /support/i, /secur/i, /existing team/i]
    const texts = questions.map((q) => textOf($, $(q)))
    topics.forEach((topic, i) => expect(texts[i]).toMatch(topic))
  })
})
