import { expect, test } from '@playwright/test'
import { content, html, settings } from './support/built'
import { byRole, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The contact page as the server sends it. (Moved from the Chromium suite: tests/contact-page.spec.ts
// keeps the form shown, the layout at two widths and the FAQ's behaviour.)

const contact = content.pages.contact
const form = content.forms.contact
const faq = contact.faq
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))

test.describe('Contact page', () => {
  test('shows its sections in order', () => {
    const $ = html('/contact')
    const h1 = byRole($, 'heading', { level: 1 })
    expect(h1.map((h) => textOf($, $(h)))).toEqual([contact.hero.title])
    expect(textOf($, $(h1))).toContain('build the future together')
    expect(sectionHeadings($)).toEqual([form.title, contact.cards.title, faq.intro.title])
    expect(form.title).toBe('Send us a Message')
  })

  test('offers the general email, the phone number and the Tallinn office', () => {
    const $ = html('/contact')
    const cards = byRole($, 'listitem', {}, only($, 'region', { name: contact.cards.title }))
    expect(cards).toHaveLength(3)
    expect(names($, byRole($, 'heading', { level: 3 }, $(cards)))).toEqual([
      contact.cards.email.title,
      contact.cards.phone.title,
      contact.cards.office.title,
    ])
    expect(only($, 'link', { name: settings.contact.email }).attr('href')).toBe(`mailto:${settings.contact.email}`)
    expect(only($, 'link', { name: settings.contact.phone }).attr('href')).toBe(`tel:${settings.contact.phone.replace(/\s/g, '')}`)
    const address = textOf($, $(cards[2]).find('address'))
    expect(address).toContain(settings.contact.office.name)
    for (const line of settings.contact.office.lines) expect(address).toContain(line)
    expect(address).toContain('Tallinn')
  })

  test('answers the four questions of the spec', () => {
    const $ = html('/contact')
    const region = only($, 'region', { name: faq.intro.title })
    expect(region.find('summary')).toHaveLength(4)
    const answers = faq.items.map((item) => item.answer)
    expect(answers[0]).toMatch(/2-4 weeks/)
    expect(answers[0]).toMatch(/3-6 months or more/)
    expect(answers[1]).toMatch(/all sizes/)
    for (const term of ['24/7 monitoring', 'updates', 'optimisation', 'dedicated support', 'tiers']) {
      expect(answers[2]).toContain(term)
    }
    for (const term of ['GDPR', 'HIPAA', 'SOC 2', 'industry']) expect(answers[3]).toContain(term)
  })
})
