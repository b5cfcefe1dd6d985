import { expect, type Page, test } from '@playwright/test'
import { content } from './support/content'
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

// The page's markup (sections, contact cards and links, the FAQ's questions) is checked without
// a browser in tests-static/contact-page.spec.ts; what stays here needs a browser: the form
// shown, the layout at two widths, the FAQ's behaviour.
test.describe('Contact page', () => {
  test('places the Send us a Message form', async ({ page }) => {
    await visit(page, '/contact')
    const contactForm = page.getByRole('form', { name: 'Send us a Message' })
    await expect(contactForm).toBeVisible()
    await expect(contactForm.getByRole('button', { name: form.messages.submit })).toBeVisible()
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
