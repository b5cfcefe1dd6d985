import { type Browser, type Locator, type Page, expect, test } from '@playwright/test'
import type { Email } from 'postal-mime'
import { contract } from '../schema/contract'
import { content, settings } from './support/content'
import {
  exportedSubscribers,
  mailContaining,
  queuedMessages,
  receivedMail,
  restartContactFn,
  stopContactFn,
} from './support/formsEnv'
import { formAxeViolations as axeViolations } from './support/formAxe'
import { startUsing } from './support/islands'
import { visit } from './support/visit'

// The contact page form, the home page form and the Insights page's newsletter block, sent for
// real: the site built against a contact-fn process, which delivers to an SMTP server that
// keeps what it receives (see global-setup.ts). The tests share that one contact-fn and one of
// them stops it, so this file's tests run one after another.
test.describe.configure({ mode: 'default' })
// Set by global setup when the site under test was built against another contact service.
test.skip(Boolean(process.env.E2E_FORMS_SKIP), process.env.E2E_FORMS_SKIP)

const { contact, enquiry } = content.forms
const toasts = (page: Page) => page.getByRole('region', { name: settings.ui.notifications_label })
const toast = (page: Page, title: string) => toasts(page).getByRole('listitem').filter({ hasText: title })

/** A word no other message contains, to find this test's email among all received. */
function uniqueMarker() {
  return `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
}

function contactFields(form: Locator, words = contact) {
  const f = words.fields
  return {
    name: form.getByRole('textbox', { name: f.name.label }),
    email: form.getByRole('textbox', { name: f.email.label }),
    company: form.getByRole('textbox', { name: f.company.label }),
    countryCode: form.getByRole('combobox', { name: f.country_code.label }),
    phone: form.getByRole('textbox', { name: f.phone.label }),
    subject: form.getByRole('textbox', { name: f.subject.label }),
    message: form.getByRole('textbox', { name: f.message.label }),
  }
}

type ContactValues = Record<Exclude<keyof ReturnType<typeof contactFields>, 'countryCode'>, string> & {
  countryCode: string
}

function contactValues(marker: string): ContactValues {
  return {
    name: 'Ada Lovelace',
    email: `ada.${marker}@example.com`,
    company: 'Analytical Engines Ltd',
    countryCode: '+358',
    phone: '40 123 4567',
    subject: `Data platform review ${marker}`,
    message: `We would like a review of our data platform.\nSecond line: ünïcødé, 東京, emoji ✓ ${marker}`,
  }
}

async function fillContact(form: Locator, values: ContactValues, words = contact) {
  const fields = contactFields(form, words)
  for (const key of ['name', 'email', 'company', 'phone', 'subject', 'message'] as const) {
    await fields[key].fill(values[key])
  }
  await fields.countryCode.selectOption(values.countryCode)
}

async function expectContactValues(form: Locator, values: ContactValues) {
  const fields = contactFields(form)
  for (const key of Object.keys(values) as (keyof ContactValues)[]) {
    await expect(fields[key], key).toHaveValue(values[key])
  }
}

/** Opens the contact page and starts using its form, which hydrates the form's island. */
async function openContactForm(page: Page) {
  await visit(page, '/contact')
  const form = page.getByRole('form', { name: contact.title })
  await startUsing(form)
  return form
}

/** Records every label and disabled state the submit button shows, however briefly. */
async function watchButton(page: Page, form: Locator) {
  await form.getByRole('button', { name: contact.messages.submit }).evaluate((button) => {
    const seen: string[] = []
    ;(window as unknown as { buttonStates: string[] }).buttonStates = seen
    new MutationObserver(() => {
      seen.push(`${button.textContent}${(button as HTMLButtonElement).disabled ? ' (disabled)' : ''}`)
    }).observe(button, { subtree: true, childList: true, characterData: true, attributes: true })
  })
  return () => page.evaluate(() => (window as unknown as { buttonStates: string[] }).buttonStates)
}

/** The messages holding `marker`, once delivery has finished (the outbox is empty). */
/** The emails for the company inbox that carry `marker`, once everything queued was sent. */
async function deliveredMail(marker: string) {
  await expect.poll(async () => (await inboxMail(marker)).length, { timeout: 15_000 }).toBeGreaterThan(0)
  await expect.poll(queuedMessages, { timeout: 15_000 }).toBe(0)
  return inboxMail(marker)
}

/** The label contact-fn puts before the subject of a message that failed its spam checks, here
 * the proof of work the island solves and a plain post cannot. */
const UNVERIFIED = '[Unverified]'

/** The emails carrying `marker` that went to the company inbox, not to the visitor. */
async function inboxMail(marker: string) {
  return (await mailContaining(marker)).filter((mail) => !sentToVisitor(mail, marker))
}

/** Whether `mail` went to the visitor (whose address holds the marker): a newsletter confirmation. */
function sentToVisitor(mail: Email, marker: string) {
  return (mail.to ?? []).some((to) => to.address?.includes(marker))
}

async function newPageWithErrors(browser: Browser, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  return { context, page, errors }
}

/** `size` bytes of a PDF's beginning and a pattern after it. */
function pdfBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size)
  for (let i = 0; i < size; i++) bytes[i] = i % 251
  bytes.write('%PDF-1.7\n', 0)
  return bytes
}

/** The email carries exactly `files`: their names, types and every byte. */
function expectAttachments(mail: Email | undefined, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const attached = mail?.attachments ?? []
  expect(attached.map((a) => a.filename)).toEqual(files.map((f) => f.name))
  for (const [index, file] of files.entries()) {
    const part = attached[index]
    expect(part?.mimeType).toBe(file.mimeType)
    const content = part?.content
    const bytes =
      typeof content === 'string'
        ? Buffer.from(content)
        : content instanceof Uint8Array
          ? Buffer.from(content)
          : Buffer.from(new Uint8Array(content ?? new ArrayBuffer(0)))
    expect(bytes.equals(file.buffer), `${file.name} arrived changed`).toBe(true)
  }
}

test.describe('the contact page form', () => {
  test('is complete, labelled and asks the browser to check the required fields', async ({ page }) => {
    const form = await openContactForm(page)
    await expect(form.getByRole('heading', { name: contact.title })).toBeVisible()
    const fields = contactFields(form)
    for (const key of ['name', 'email', 'phone', 'subject', 'message'] as const) {
      await expect(fields[key], key).toHaveAttribute('required', '')
    }
    await expect(fields.company).not.toHaveAttribute('required')
    await expect(fields.email).toHaveAttribute('type', 'email')
    await expect(fields.phone).toHaveAttribute('type', 'tel')
    for (const [key, field] of Object.entries(contact.fields)) {
      if ('placeholder' in field && field.placeholder) await expect(form.getByPlaceholder(field.placeholder), key).toBeVisible()
    }
    await expect(fields.countryCode).toHaveValue(content.settings.languages[0]?.country_code ?? '')
    await expect(fields.countryCode.getByRole('option')).toHaveCount(content.countries.length)
    // The open list is at most 300 px tall.
    const listHeight = await fields.countryCode.evaluate((select) => getComputedStyle(select, '::picker(select)').maxHeight)
    expect(listHeight).toBe('300px')

    // An empty form is stopped by the browser: nothing is sent, the first field is invalid.
    const requests: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') requests.push(request.url())
    })
    await form.getByRole('button', { name: contact.messages.submit }).click()
    await expect(fields.name).toBeFocused()
    expect(await fields.name.evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true)
    expect(requests).toEqual([])
  })

  test('sends every field once: "Sending...", the success toast, then an empty form with +49', async ({ page }) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const form = await openContactForm(page)
    const marker = uniqueMarker()
    const values = contactValues(marker)
    await fillContact(form, values)
    const buttonStates = await watchButton(page, form)
    await form.getByRole('button', { name: contact.messages.submit }).click()

    const sentToast = toast(page, contact.messages.success.title)
    await expect(sentToast).toBeVisible()
    await expect(sentToast).toContainText(contact.messages.success.description)
    expect(await buttonStates()).toContain(`${contact.messages.sending} (disabled)`)
    await expect(form.getByRole('button', { name: contact.messages.submit })).toBeEnabled()
    await expectContactValues(form, {
      name: '',
      email: '',
      company: '',
      countryCode: '+49',
      phone: '',
      subject: '',
      message: '',
    })
    expect(errors).toEqual([])

    const mail = await deliveredMail(marker)
    expect(mail).toHaveLength(1)
    const [email] = mail
    expect(email?.replyTo?.[0]).toMatchObject({ address: values.email, name: values.name })
    for (const value of Object.values(values)) {
      for (const line of value.split('\n')) expect(email?.text).toContain(line)
    }
    expect(email?.html).toContain('Analytical Engines Ltd')
    // The island solved the proof of work while the visitor typed.
    expect(email?.subject).toContain(values.subject)
    expect(email?.subject).not.toContain(UNVERIFIED)
  })

  test('shows the service\'s message next to a field it rejects, and keeps the values', async ({ page }) => {
    const form = await openContactForm(page)
    const values = { ...contactValues(uniqueMarker()), phone: 'call me after lunch' }
    await fillContact(form, values)
    await form.getByRole('button', { name: contact.messages.submit }).click()

    const phone = contactFields(form).phone
    await expect(phone).toHaveAttribute('aria-invalid', 'true')
    await expect(phone).toHaveAccessibleDescription(/phone number/i)
    // The words content gives the service's error code, not the service's own message.
    await expect(phone).toHaveAccessibleDescription(contact.messages.errors.invalid_phone ?? 'no words')
    const describedBy = await phone.getAttribute('aria-describedby')
    await expect(form.locator(`[id="${describedBy}"]`)).toBeVisible()
    await expect(phone).toBeFocused()
    // Announced: the form's live region says what to do.
    await expect(form.getByText(contact.messages.invalid)).toHaveAttribute('aria-live', 'assertive')
    await expect(toast(page, contact.messages.failure.title)).toBeVisible()
    await expectContactValues(form, values)
    for (const field of ['name', 'email', 'subject', 'message'] as const) {
      await expect(contactFields(form)[field]).not.toHaveAttribute('aria-invalid')
    }

    // Correcting the field clears its message; sending again succeeds.
    await phone.fill('40 123 4567')
    await expect(phone).not.toHaveAttribute('aria-invalid')
    await form.getByRole('button', { name: contact.messages.submit }).click()
    await expect(toast(page, contact.messages.success.title)).toBeVisible()
  })

  test('with contact-fn stopped: the failure toast, the values stay, the error is logged', async ({ page }) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const form = await openContactForm(page)
    const marker = uniqueMarker()
    const values = contactValues(marker)
    await fillContact(form, values)
    await stopContactFn()
    try {
      await form.getByRole('button', { name: contact.messages.submit }).click()
      await expect(form.getByRole('button', { name: contact.messages.sending })).toBeDisabled()
      // Three retries with back-off (1 s, 2 s, 4 s) come first.
      const failed = toast(page, contact.messages.failure.title)
      await expect(failed).toBeVisible({ timeout: 20_000 })
      await expect(failed).toContainText(contact.messages.failure.description)
      await expectContactValues(form, values)
      await expect(form.getByRole('button', { name: contact.messages.submit })).toBeEnabled()
      expect(errors.some((e) => e.includes('The message could not be sent'))).toBe(true)
    } finally {
      await restartContactFn()
    }
    expect(await mailContaining(marker)).toHaveLength(0)
  })

  test('a send that meets contact-fn down is retried with one Idempotency-Key and delivered once', async ({ page }) => {
    const form = await openContactForm(page)
    const marker = uniqueMarker()
    await fillContact(form, contactValues(marker))
    const keys: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/send-contact-email')) {
        keys.push(request.headers()['idempotency-key'] ?? '(none)')
      }
    })
    const firstFailure = page.waitForEvent('requestfailed', (request) => request.url().endsWith('/send-contact-email'))
    await stopContactFn()
    try {
      await form.getByRole('button', { name: contact.messages.submit }).click()
      await firstFailure
    } finally {
      await restartContactFn()
    }
    await expect(toast(page, contact.messages.success.title)).toBeVisible({ timeout: 20_000 })
    expect(keys.length).toBeGreaterThan(1)
    expect(new Set(keys).size).toBe(1)
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/)
    expect(await deliveredMail(marker)).toHaveLength(1)
  })

  test('without JavaScript the form posts, the confirmation page appears and the email arrives', async ({
    browser,
  }) => {
    const { context, page } = await newPageWithErrors(browser, { javaScriptEnabled: false })
    await page.goto('/contact/')
    const form = page.getByRole('form', { name: contact.title })
    await expect(contactFields(form).countryCode).toHaveValue('+49')
    const marker = uniqueMarker()
    const values = contactValues(marker)
    await fillContact(form, values)
    await form.getByRole('button', { name: contact.messages.submit }).click()

    await expect(page).toHaveURL(/\/contact\/sent\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(content.forms.sent.hero.title)
    await expect(page).toHaveTitle(content.forms.sent.meta.title)
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    const mail = await deliveredMail(marker)
    expect(mail).toHaveLength(1)
    for (const value of Object.values(values)) {
      for (const line of value.split('\n')) expect(mail[0]?.text).toContain(line)
    }
    // Without script no proof of work is done: delivered all the same, labelled for the filter.
    expect(mail[0]?.subject).toContain(UNVERIFIED)

    // A rejected plain post ends on the error page, which leads back to the form.
    await page.goto('/contact/')
    await fillContact(form, { ...contactValues(uniqueMarker()), phone: 'not a number' })
    await form.getByRole('button', { name: contact.messages.submit }).click()
    await expect(page).toHaveURL(/\/contact\/error\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(content.forms.error.hero.title)
    await expect(page.getByRole('link', { name: content.forms.error.hero.actions[0]?.label })).toHaveAttribute(
      'href',
      '/contact',
    )
    await context.close()
  })

  test('without JavaScript the files go with the post and arrive byte for byte', async ({ browser }) => {
    const { context, page } = await newPageWithErrors(browser, { javaScriptEnabled: false })
    await page.goto('/contact/')
    const form = page.getByRole('form', { name: contact.title })
    const marker = uniqueMarker()
    await fillContact(form, contactValues(marker))
    const brief = { name: 'brief.pdf', mimeType: 'application/pdf', buffer: pdfBytes(300_000) }
    const notes = { name: 'Notizen für Ümit.txt', mimeType: 'text/plain', buffer: Buffer.from(`Notes ${marker}\n`) }
    await form.getByLabel(contact.fields.attachments.label).setInputFiles([brief, notes])
    await form.getByRole('button', { name: contact.messages.submit }).click()

    await expect(page).toHaveURL(/\/contact\/sent\/$/)
    const mail = await deliveredMail(marker)
    expect(mail).toHaveLength(1)
    expectAttachments(mail[0], [brief, notes])
    await context.close()
  })

  test('with JavaScript: chosen files listed with their size, wrong ones refused, one removed, progress, delivered intact', async ({
    page,
  }) => {
    const form = await openContactForm(page)
    const marker = uniqueMarker()
    await fillContact(form, contactValues(marker))
    const words = contact.fields.attachments
    const input = form.getByLabel(words.label)
    const brief = { name: 'brief.pdf', mimeType: 'application/pdf', buffer: pdfBytes(2 * 1024 * 1024) }
    const notes = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes\n') }
    await input.setInputFiles([brief, notes])
    const chosen = form.getByRole('list', { name: words.chosen })
    await expect(chosen.getByRole('listitem')).toHaveCount(2)
    await expect(chosen.getByRole('listitem').first()).toContainText('brief.pdf')
    await expect(chosen.getByRole('listitem').first()).toContainText('2 MB')

    // Refused before anything is sent, each with the words content gives the contract's reason.
    const huge = { name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(contract.attachments.maxFileBytes + 1) }
    const program = { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') }
    await input.setInputFiles([huge, program])
    const alert = form.getByRole('alert')
    await expect(alert).toContainText(`huge.pdf: ${contact.messages.errors.file_too_large}`)
    await expect(alert).toContainText(`setup.exe: ${contact.messages.errors.file_type}`)
    await expect(chosen.getByRole('listitem')).toHaveCount(2)
    expect(await input.evaluate((element) => (element as HTMLInputElement).files?.length)).toBe(2)
    expect(await axeViolations(page, form), 'files listed, two refused').toEqual([])

    await form.getByRole('button', { name: words.remove.replace('{name}', 'notes.txt') }).click()
    await expect(chosen.getByRole('listitem')).toHaveCount(1)

    // The progress bar shows while the files go out, however briefly.
    await form.evaluate((element) => {
      const seen: boolean[] = []
      ;(window as unknown as { progressSeen: boolean[] }).progressSeen = seen
      new MutationObserver(() => {
        if (element.querySelector('progress')) seen.push(true)
      }).observe(element, { subtree: true, childList: true })
    })
    await form.getByRole('button', { name: contact.messages.submit }).click()
    await expect(toast(page, contact.messages.success.title)).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { progressSeen: boolean[] }).progressSeen.length)).toBeGreaterThan(0)
    await expect(form.getByRole('list', { name: words.chosen })).toHaveCount(0)

    const mail = await deliveredMail(marker)
    expect(mail).toHaveLength(1)
    expectAttachments(mail[0], [brief])
    expect(mail[0]?.subject).not.toContain(UNVERIFIED)
  })

  test('has no accessibility violations when idle, rejected or sent', async ({ browser }) => {
    test.slow()
    const { context, page } = await newPageWithErrors(browser)
    const form = await openContactForm(page)
    expect(await axeViolations(page, form), 'idle').toEqual([])

    await fillContact(form, { ...contactValues(uniqueMarker()), phone: 'call me' })
    await form.getByRole('button', { name: contact.messages.submit }).click()
    await expect(toast(page, contact.messages.failure.title)).toBeVisible()
    await expect(contactFields(form).phone).toHaveAttribute('aria-invalid', 'true')
    expect(await axeViolations(page, form), 'rejected').toEqual([])

    await contactFields(form).phone.fill('40 123 4567')
    await form.getByRole('button', { name: contact.messages.submit }).click()
    await expect(toast(page, contact.messages.success.title)).toBeVisible()
    expect(await axeViolations(page, form), 'sent').toEqual([])
    await context.close()
  })
})

function enquiryFields(form: Locator) {
  const f = enquiry.fields
  return {
    firstName: form.getByRole('textbox', { name: f.first_name.label }),
    lastName: form.getByRole('textbox', { name: f.last_name.label }),
    email: form.getByRole('textbox', { name: f.email.label }),
    jobTitle: form.getByRole('textbox', { name: f.job_title.label }),
    company: form.getByRole('textbox', { name: f.company.label, exact: true }),
    phone: form.getByRole('textbox', { name: f.phone.label }),
    topic: form.getByRole('textbox', { name: f.topic.label }),
    source: form.getByRole('combobox', { name: f.source.label }),
    role: form.getByRole('combobox', { name: f.role.label }),
    newsletter: form.getByRole('checkbox', { name: f.newsletter.label }),
    privacy: form.getByRole('checkbox', { name: f.privacy.label }),
  }
}

/** Opens the home page and starts using its Get in Touch form, which hydrates the form's island. */
async function openEnquiryForm(page: Page) {
  await visit(page, '/')
  const form = page.getByRole('form', { name: enquiry.title })
  await startUsing(form)
  return form
}

async function fillEnquiry(form: Locator, marker: string, phone = '(555) 123-4567') {
  const fields = enquiryFields(form)
  await fields.firstName.fill('Grace')
  await fields.lastName.fill('Hopper')
  await fields.email.fill(`grace.${marker}@example.com`)
  await fields.jobTitle.fill('Rear Admiral')
  await fields.company.fill('Compilers Inc')
  await fields.phone.fill(phone)
  await fields.topic.fill(`Moving our batch jobs to the cloud ${marker}`)
  await fields.source.selectOption('search')
  await fields.role.selectOption('cto')
  await fields.newsletter.check()
  await fields.privacy.check()
}

test.describe('the contact form in another language', () => {
  // The site's second language: its own words, errors, toasts and pages, and the service
  // redirects there (the form names its page's language in its address).
  const translation = content.translations?.[0]
  if (!translation) throw new Error('the content has no translation')
  const words = translation.forms.contact
  const contactPath = translation.routes.find((r) => r.kind === 'contact')?.path ?? ''
  const sentPath = translation.routes.find((r) => r.kind === 'contact-sent')?.path ?? ''
  const errorPath = translation.routes.find((r) => r.kind === 'contact-error')?.path ?? ''
  const notifications = translation.settings.ui.notifications_label
  const toastIn = (page: Page, title: string) =>
    page.getByRole('region', { name: notifications }).getByRole('listitem').filter({ hasText: title })

  test('shows its own words for a rejected field, then sends', async ({ page }) => {
    await visit(page, contactPath)
    const form = page.getByRole('form', { name: words.title })
    await startUsing(form)
    const marker = uniqueMarker()
    const values = { ...contactValues(marker), phone: 'helistage pärast lõunat' }
    await fillContact(form, values, words)
    await form.getByRole('button', { name: words.messages.submit }).click()
    const phone = contactFields(form, words).phone
    await expect(phone).toHaveAttribute('aria-invalid', 'true')
    await expect(phone).toHaveAccessibleDescription(words.messages.errors.invalid_phone ?? 'no words')
    await expect(form.getByText(words.messages.invalid)).toBeVisible()
    await expect(toastIn(page, words.messages.failure.title)).toBeVisible()
    await phone.fill('600 4100')
    await form.getByRole('button', { name: words.messages.submit }).click()
    await expect(toastIn(page, words.messages.success.title)).toBeVisible()
    expect(await deliveredMail(marker)).toHaveLength(1)
  })

  test('without JavaScript ends on its own sent and error pages', async ({ browser }) => {
    const { context, page } = await newPageWithErrors(browser, { javaScriptEnabled: false })
    await page.goto(`${contactPath}/`)
    const form = page.getByRole('form', { name: words.title })
    await fillContact(form, contactValues(uniqueMarker()), words)
    await form.getByRole('button', { name: words.messages.submit }).click()
    await expect(page).toHaveURL(new RegExp(`${sentPath}/$`))
    await expect(page.locator('html')).toHaveAttribute('lang', translation.settings.language)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(translation.forms.sent.hero.title)

    await page.goto(`${contactPath}/`)
    await fillContact(form, { ...contactValues(uniqueMarker()), phone: 'ei ole number' }, words)
    await form.getByRole('button', { name: words.messages.submit }).click()
    await expect(page).toHaveURL(new RegExp(`${errorPath}/$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(translation.forms.error.hero.title)
    await context.close()
  })
})

test.describe('the home page Get in Touch form', () => {
  test('has every field with its type, options and required flag', async ({ page }) => {
    const form = await openEnquiryForm(page)
    const fields = enquiryFields(form)
    for (const key of ['firstName', 'lastName', 'email', 'company', 'topic'] as const) {
      await expect(fields[key], key).toHaveAttribute('required', '')
    }
    for (const key of ['jobTitle', 'phone', 'source', 'role', 'newsletter', 'privacy'] as const) {
      await expect(fields[key], key).not.toHaveAttribute('required')
    }
    await expect(fields.email).toHaveAttribute('type', 'email')
    await expect(fields.phone).toHaveAttribute('type', 'tel')
    await expect(form.getByText(enquiry.fields.phone.prefix, { exact: true })).toBeVisible()
    await expect(fields.topic).toHaveAttribute('rows', '3')
    await expect(fields.source.getByRole('option')).toHaveText([
      enquiry.fields.source.placeholder,
      'Search Engine',
      'Social Media',
      'Referral',
      'Event/Conference',
      'Other',
    ])
    await expect(fields.role.getByRole('option')).toHaveText([
      enquiry.fields.role.placeholder,
      'CTO',
      'CEO',
      'Developer',
      'Manager',
      'Other',
    ])
    await expect(fields.source).toHaveValue('')
    await expect(fields.role).toHaveValue('')
    await expect(fields.newsletter).toHaveAttribute('id', 'newsletter')
    await expect(fields.privacy).toHaveAttribute('id', 'privacy')
  })

  test('sends the enquiry: "Sending...", the success toast, an empty form and one email (and the newsletter\'s confirmation)', async ({ page }) => {
    const form = await openEnquiryForm(page)
    const marker = uniqueMarker()
    await fillEnquiry(form, marker)
    const buttonStates = await watchButton(page, form)
    await form.getByRole('button', { name: enquiry.messages.submit }).click()

    await expect(toast(page, enquiry.messages.success.title)).toContainText(enquiry.messages.success.description)
    expect(await buttonStates()).toContain(`${enquiry.messages.sending} (disabled)`)
    const fields = enquiryFields(form)
    for (const key of ['firstName', 'lastName', 'email', 'jobTitle', 'company', 'phone', 'topic', 'source', 'role'] as const) {
      await expect(fields[key], key).toHaveValue('')
    }
    await expect(fields.newsletter).not.toBeChecked()
    await expect(fields.privacy).not.toBeChecked()

    const mail = await deliveredMail(marker)
    expect(mail).toHaveLength(1)
    expect(mail[0]?.subject).not.toContain(UNVERIFIED)
    // The ticked newsletter box asked the visitor to confirm their subscription.
    const confirmations = (await mailContaining(marker)).filter((m) => sentToVisitor(m, marker))
    expect(confirmations.map((m) => m.subject)).toEqual([content.forms.newsletter.email.subject])
    const text = mail[0]?.text ?? ''
    for (const value of [
      'Grace',
      'Hopper',
      `grace.${marker}@example.com`,
      'Rear Admiral',
      'Compilers Inc',
      '(555) 123-4567',
      `Moving our batch jobs to the cloud ${marker}`,
      'Search Engine',
      'CTO',
    ]) {
      expect(text).toContain(value)
    }
    expect(text).toMatch(/Newsletter:\s+yes/)
    expect(text).toMatch(/Privacy agreement:\s+accepted/)
  })

  test('without JavaScript the enquiry posts, the confirmation page appears and the email arrives', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/')
    const form = page.getByRole('form', { name: enquiry.title })
    const marker = uniqueMarker()
    await fillEnquiry(form, marker)
    await form.getByRole('button', { name: enquiry.messages.submit }).click()
    await expect(page).toHaveURL(/\/contact\/sent\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(content.forms.sent.hero.title)
    const mail = await deliveredMail(marker)
    expect(mail).toHaveLength(1)
    expect(mail[0]?.text).toMatch(/Newsletter:\s+yes/)
    expect(mail[0]?.text).toContain('Search Engine')
    expect(mail[0]?.subject).toContain(UNVERIFIED)
    await context.close()
  })

  test('shows the service\'s message next to a rejected field; axe finds nothing in any state', async ({ browser }) => {
    test.slow()
    const { context, page } = await newPageWithErrors(browser)
    const form = await openEnquiryForm(page)
    expect(await axeViolations(page, form), 'idle').toEqual([])

    await fillEnquiry(form, uniqueMarker(), 'ring me')
    await form.getByRole('button', { name: enquiry.messages.submit }).click()
    const phone = enquiryFields(form).phone
    await expect(phone).toHaveAttribute('aria-invalid', 'true')
    await expect(phone).toHaveAccessibleDescription(/phone number/i)
    // The dialling code, then the words content gives the service's error code.
    await expect(phone).toHaveAccessibleDescription(
      `${enquiry.fields.phone.prefix} ${enquiry.messages.errors.invalid_phone ?? 'no words'}`,
    )
    await expect(form.getByText(enquiry.messages.invalid)).toBeVisible()
    await expect(toast(page, enquiry.messages.failure.title)).toBeVisible()
    await expect(enquiryFields(form).company).toHaveValue('Compilers Inc')
    expect(await axeViolations(page, form), 'rejected').toEqual([])

    await phone.fill('555 123 4567')
    await form.getByRole('button', { name: enquiry.messages.submit }).click()
    await expect(toast(page, enquiry.messages.success.title)).toBeVisible()
    expect(await axeViolations(page, form), 'sent').toEqual([])
    await context.close()
  })
})

// The newsletter: subscribing sends a confirmation email; its link confirms, its unsubscribe
// link unsubscribes with one click.
const { newsletter } = content.forms
const block = content.pages.insights.newsletter
const pages = newsletter.pages

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
    const { context, page } = await newPageWithErrors(browser, { javaScriptEnabled: false })
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
    expect(await axeViolations(page, form), 'idle').toEqual([])

    // What a browser that does not check addresses would send: the service rejects it.
    await form.evaluate((element) => {
      ;(element as HTMLFormElement).noValidate = true
    })
    await emailBox(form).fill('not an address')
    await form.getByRole('button', { name: newsletter.messages.submit }).click()
    await expect(emailBox(form)).toHaveAttribute('aria-invalid', 'true')
    await expect(form.getByText(newsletter.messages.errors.invalid_email ?? 'no words for invalid_email')).toBeVisible()
    await expect(form.getByText(newsletter.messages.invalid)).toBeVisible()
    expect(await axeViolations(page, form), 'rejected').toEqual([])

    await emailBox(form).fill(uniqueAddress())
    await form.getByRole('button', { name: newsletter.messages.submit }).click()
    await expect(form.getByText(newsletter.messages.success.description)).toBeVisible()
    expect(await axeViolations(page, form), 'sent').toEqual([])
  })

  test('with contact-fn stopped: "Subscribing...", then the failure toast; axe finds nothing', async ({ browser }) => {
    test.slow()
    const { context, page } = await newPageWithErrors(browser)
    await visit(page, '/insights')
    const form = newsletterForm(page)
    await startUsing(form)
    const address = uniqueAddress()
    await emailBox(form).fill(address)
    await stopContactFn()
    try {
      await form.getByRole('button', { name: newsletter.messages.submit }).click()
      await expect(form.getByRole('button', { name: newsletter.messages.sending })).toBeDisabled()
      const failed = toasts(page).getByRole('listitem').filter({ hasText: newsletter.messages.failure.title })
      await expect(failed).toContainText(newsletter.messages.failure.description, { timeout: 20_000 })
      await expect(emailBox(form)).toHaveValue(address)
      expect(await axeViolations(page, form), 'failed').toEqual([])
    } finally {
      await restartContactFn()
    }
    await context.close()
  })
})
