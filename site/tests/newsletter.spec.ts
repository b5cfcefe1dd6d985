import { type Browser, type Locator, type Page, expect, test } from '@playwright/test'
import type { Email } from 'postal-mime'
import { content, settings } from './support/content'
import { formAxeViolations } from './support/formAxe'
import { exportedSubscribers, receivedMail } from './support/formsEnv'
import { startUsing } from './support/islands'
import { visit } from './support/visit'

// The Insights page's newsletter block, for real: the site built against a contact-fn that
// delivers to an SMTP server keeping what it receives (see global-setup.ts). Subscribing sends
// a confirmation email; its link confirms, its unsubscribe link unsubscribes with one click.
test.skip(Boolean(process.env.E2E_FORMS_SKIP), process.env.E2E_FORMS_SKIP)

const { newsletter } = content.forms
const block = content.pages.insights.newsletter
const pages = newsletter.pages
const toasts = (page: Page) => page.getByRole('region', { name: settings.ui.notifications_label })

/** A fresh address, so each test has its own per-address limit and its own emails. */
function uniqueAddress() {
  return `reader.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`
}

function newsletterForm(page: Page) {
  return page.getByRole('form', { name: block.intro.title })
}

function emailBox(form: Locator) {
  return form.getByRole('textbox', { name: block.email_label })
}

/** The confirmation email sent to `address`, once it arrived. */
async function confirmationTo(address: string): Promise<Email> {
  const sentTo = async () => (await receivedMail()).filter((mail) => mail.to?.some((to) => to.address === address))
  await expect.poll(async () => (await sentTo()).length, { timeout: 15_000 }).toBe(1)
  const [mail] = await sentTo()
  if (!mail) throw new Error(`no email to ${address}`)
  return mail
}

function confirmLink(mail: Email): string {
  const link = /https?:\/\/\S+\/subscribe\/confirm\?\S+/.exec(mail.text ?? '')?.[0]
  if (!link) throw new Error(`no confirmation link in ${mail.text}`)
  return link
}

function unsubscribeLink(mail: Email): string {
  const header = mail.headers.find((h) => h.key === 'list-unsubscribe')?.value ?? ''
  return header.replace(/^<|>$/g, '')
}

async function expectPage(page: Page, name: keyof typeof pages) {
  await expect(page).toHaveURL(new RegExp(`/newsletter/${name}/$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pages[name]?.hero.title ?? '')
}

async function newPage(browser: Browser, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext(options)
  return { context, page: await context.newPage() }
}

test.describe('the newsletter block', () => {
  test('subscribes: confirmation email, the link confirms, export lists it, one click unsubscribes', async ({ page }) => {
    await visit(page, '/insights')
    const form = newsletterForm(page)
    await expect(form).toContainText(newsletter.consent.text)
    await startUsing(form)
    const address = uniqueAddress()
    await emailBox(form).fill(address)
    await form.getByRole('button', { name: newsletter.messages.submit }).click()
    await expect(form.getByText(newsletter.messages.success.description)).toBeVisible()
    await expect(toasts(page).getByRole('listitem').filter({ hasText: newsletter.messages.success.title })).toBeVisible()
    await expect(emailBox(form)).toHaveValue('')

    const mail = await confirmationTo(address)
    expect(mail.subject).toBe(newsletter.email.subject)
    expect(mail.text).toContain(address)
    await page.goto(confirmLink(mail))
    await expectPage(page, 'confirmed')
    expect(exportedSubscribers()).toMatch(new RegExp(`^${address.replace(/\./g, '\\.')},\\d{4}-.*,newsletter\\r?$`, 'm'))

    await page.goto(unsubscribeLink(mail))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(newsletter.unsubscribe.title)
    await page.getByRole('button', { name: newsletter.unsubscribe.button }).click()
    await expectPage(page, 'unsubscribed')
    expect(exportedSubscribers()).not.toContain(address)

    // The confirmation link, followed again after leaving, does not subscribe again.
    await page.goto(confirmLink(mail))
    await expectPage(page, 'invalid')
    await expect(page.getByRole('link', { name: pages.invalid?.hero.actions[0]?.label })).toBeVisible()
  })

  test('without JavaScript the block posts and lands on the check-your-inbox page', async ({ browser }) => {
    const { context, page } = await newPage(browser, { javaScriptEnabled: false })
    await page.goto('/insights/')
    const form = newsletterForm(page)
    const address = uniqueAddress()
    await emailBox(form).fill(address)
    await form.getByRole('button', { name: newsletter.messages.submit }).click()
    await expectPage(page, 'pending')
    await confirmationTo(address)
    await context.close()
  })

  test('has no accessibility violations when idle, rejected or sent', async ({ page }) => {
    test.slow()
    await visit(page, '/insights')
    const form = newsletterForm(page)
    await startUsing(form)
    expect(await formAxeViolations(page, form), 'idle').toEqual([])

    // What a browser that does not check addresses would send: the service rejects it.
    await form.evaluate((element) => {
      ;(element as HTMLFormElement).noValidate = true
    })
    await emailBox(form).fill('not an address')
    await form.getByRole('button', { name: newsletter.messages.submit }).click()
    await expect(emailBox(form)).toHaveAttribute('aria-invalid', 'true')
    await expect(form.getByText(newsletter.messages.errors.invalid_email ?? 'no words for invalid_email')).toBeVisible()
    await expect(form.getByText(newsletter.messages.invalid)).toBeVisible()
    expect(await formAxeViolations(page, form), 'rejected').toEqual([])

    await emailBox(form).fill(uniqueAddress())
    await form.getByRole('button', { name: newsletter.messages.submit }).click()
    await expect(form.getByText(newsletter.messages.success.description)).toBeVisible()
    expect(await formAxeViolations(page, form), 'sent').toEqual([])
  })
})
