import { expect, type Page, test } from '@playwright/test'
import { content, settings } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const contact = content.pages.contact
const form = content.forms.contact
const faq = contact.faq

const item = (i: number) => {
  const found = faq.items[i]
  if (!found) throw new Error(`the contact FAQ has no item ${i}`)
  return found
}
// The clickable question of an FAQ item (its <summary>) and its answer.
const question = (page: Page, i: number) =>
  page.getByRole('region', { name: faq.intro.title }).locator('summary').filter({ hasText: item(i).question })
const answer = (page: Page, i: number) => page.getByText(item(i).answer, { exact: true })

test.describe('Contact page', () => {
  test('shows its sections in order', async ({ page }) => {
    await visit(page, '/contact')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(contact.hero.title)
    await expect(page.getByRole('heading', { level: 1 })).toContainText('build the future together')
    expect(await sectionHeadings(page)).toEqual([form.title, contact.cards.title, faq.intro.title])
    expect(form.title).toBe('Send us a Message')
  })

  test('places the Send us a Message form', async ({ page }) => {
    await visit(page, '/contact')
    const contactForm = page.getByRole('form', { name: 'Send us a Message' })
    await expect(contactForm).toBeVisible()
    await expect(contactForm.getByRole('button', { name: form.messages.submit })).toBeVisible()
  })

  test('offers the general email, the phone number and the Tallinn office', async ({ page }) => {
    await visit(page, '/contact')
    const cards = page.getByRole('region', { name: contact.cards.title }).getByRole('listitem')
    await expect(cards).toHaveCount(3)
    await expect(cards.getByRole('heading', { level: 3 })).toHaveText([
      contact.cards.email.title,
      contact.cards.phone.title,
      contact.cards.office.title,
    ])
    await expect(page.getByRole('link', { name: settings.contact.email })).toHaveAttribute(
      'href',
      `mailto:${settings.contact.email}`,
    )
    await expect(page.getByRole('link', { name: settings.contact.phone })).toHaveAttribute(
      'href',
      `tel:${settings.contact.phone.replace(/\s/g, '')}`,
    )
    const address = cards.nth(2).locator('address')
    await expect(address).toContainText(settings.contact.office.name)
    for (const line of settings.contact.office.lines) await expect(address).toContainText(line)
    await expect(address).toContainText('Tallinn')
  })

  test('puts the form beside the cards on desktop and above them on phones', async ({ page }) => {
    await visit(page, '/contact')
    const formBox = () => page.getByRole('form', { name: form.title }).boundingBox()
    const cardsBox = () => page.getByRole('region', { name: contact.cards.title }).boundingBox()
    let f = await formBox()
    let c = await cardsBox()
    expect(f && c && c.x >= f.x + f.width).toBe(true)
    await page.setViewportSize({ width: 390, height: 844 })
    f = await formBox()
    c = await cardsBox()
    expect(f && c && c.y >= f.y + f.height).toBe(true)
  })

  test('answers the four questions of the spec', async ({ page }) => {
    await visit(page, '/contact')
    const region = page.getByRole('region', { name: faq.intro.title })
    await expect(region.locator('summary')).toHaveCount(4)
    const answers = faq.items.map((item) => item.answer)
    expect(answers[0]).toMatch(/2-4 weeks/)
    expect(answers[0]).toMatch(/3-6 months or more/)
    expect(answers[1]).toMatch(/all sizes/)
    for (const term of ['24/7 monitoring', 'updates', 'optimisation', 'dedicated support', 'tiers']) {
      expect(answers[2]).toContain(term)
    }
    for (const term of ['GDPR', 'HIPAA', 'SOC 2', 'industry']) expect(answers[3]).toContain(term)
  })

  test('the FAQ keeps one answer open at a time and closes the open one', async ({ page }) => {
    await visit(page, '/contact')
    for (let i = 0; i < 4; i++) await expect(answer(page, i)).toBeHidden()

    await question(page, 0).click()
    await expect(answer(page, 0)).toBeVisible()

    await question(page, 1).click()
    await expect(answer(page, 1)).toBeVisible()
    await expect(answer(page, 0)).toBeHidden()

    await question(page, 1).click()
    for (let i = 0; i < 4; i++) await expect(answer(page, i)).toBeHidden()
  })

  test('the FAQ works from the keyboard', async ({ page }) => {
    await visit(page, '/contact')
    await question(page, 2).focus()
    await page.keyboard.press('Enter')
    await expect(answer(page, 2)).toBeVisible()
    await page.keyboard.press('Space')
    await expect(answer(page, 2)).toBeHidden()
  })
})
