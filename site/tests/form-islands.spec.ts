import { expect, test } from '@playwright/test'
import { content, settings } from './support/content'
import { mailContaining } from './support/formsEnv'
import { frameworkAssets, islandOf, recordAssets, startUsing } from './support/islands'
import { visit } from './support/visit'

// The two forms are React islands: plain HTML forms until a visitor reaches for them.
// forms.spec.ts covers everything a hydrated form does; this file covers the hand-over.
test.describe.configure({ mode: 'default' })
test.skip(Boolean(process.env.E2E_FORMS_SKIP), process.env.E2E_FORMS_SKIP)

const { contact, enquiry } = content.forms

function marker() {
  return `i${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
}

test('a form sent before its island hydrates is posted the plain way and arrives', async ({ page }) => {
  // The island never loads: whatever carries React is refused.
  await page.route('**/assets/**/*.js', async (route) => {
    const response = await route.fetch()
    const body = await response.text()
    if (body.includes('react.transitional.element') || body.includes('__REACT_DEVTOOLS_GLOBAL_HOOK__')) {
      await route.abort()
    } else {
      await route.fulfill({ response, body })
    }
  })
  await visit(page, '/contact')
  const form = page.getByRole('form', { name: contact.title })
  const word = marker()
  const f = contact.fields
  await form.getByRole('textbox', { name: f.name.label }).fill('Ada Lovelace')
  await form.getByRole('textbox', { name: f.email.label }).fill(`ada.${word}@example.com`)
  await form.getByRole('textbox', { name: f.phone.label }).fill('40 123 4567')
  await form.getByRole('textbox', { name: f.subject.label }).fill(`Before hydration ${word}`)
  await form.getByRole('textbox', { name: f.message.label }).fill(`Sent as a plain post ${word}`)
  await expect(islandOf(form)).not.toHaveAttribute('data-hydrated')
  await form.getByRole('button', { name: contact.messages.submit }).click()
  await expect(page).toHaveURL(/\/contact\/sent\/$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(content.forms.sent.hero.title)
  await expect.poll(async () => (await mailContaining(word)).length, { timeout: 15_000 }).toBe(1)
  // Requests still in flight as the test ends (the sent page's modules, a speculative
  // prerender) must not fail it from inside the handler.
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('the home form loads React only once a visitor focuses it, then sends from script', async ({ page }) => {
  const assets = recordAssets(page)
  await visit(page, '/')
  await page.waitForLoadState('networkidle')
  const form = page.getByRole('form', { name: enquiry.title })
  await expect(islandOf(form)).not.toHaveAttribute('data-hydrated')
  expect(frameworkAssets(await assets())).toEqual([])

  await startUsing(form)
  expect(frameworkAssets(await assets()).length).toBeGreaterThan(0)
  // The sonner stylesheet arrives with the island.
  await expect(page.locator('link[rel="stylesheet"]')).not.toHaveCount(1)

  const word = marker()
  const f = enquiry.fields
  await form.getByRole('textbox', { name: f.first_name.label }).fill('Grace')
  await form.getByRole('textbox', { name: f.last_name.label }).fill('Hopper')
  await form.getByRole('textbox', { name: f.email.label }).fill(`grace.${word}@example.com`)
  await form.getByRole('textbox', { name: f.company.label, exact: true }).fill('Compilers Inc')
  await form.getByRole('textbox', { name: f.topic.label }).fill(`Island flow ${word}`)
  await form.getByRole('button', { name: enquiry.messages.submit }).click()
  const toasts = page.getByRole('region', { name: settings.ui.notifications_label })
  await expect(toasts.getByRole('listitem').filter({ hasText: enquiry.messages.success.title })).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
  await expect(form.getByRole('textbox', { name: f.first_name.label })).toHaveValue('')
  await expect.poll(async () => (await mailContaining(word)).length, { timeout: 15_000 }).toBe(1)
})

test('values typed before the island hydrates stay in the form', async ({ page }) => {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0
  })
  await visit(page, '/contact')
  const form = page.getByRole('form', { name: contact.title })
  const f = contact.fields
  await form.getByRole('combobox', { name: f.country_code.label }).selectOption('+358')
  await form.getByRole('textbox', { name: f.name.label }).fill('Ada Lovelace')
  await expect(islandOf(form)).toHaveAttribute('data-hydrated', 'true')
  await expect(form.getByRole('textbox', { name: f.name.label })).toHaveValue('Ada Lovelace')
  await expect(form.getByRole('combobox', { name: f.country_code.label })).toHaveValue('+358')
})

test('the contact page hydrates its form once the browser is idle', async ({ page }) => {
  await visit(page, '/contact')
  await expect(islandOf(page.getByRole('form', { name: contact.title }))).toHaveAttribute('data-hydrated', 'true')
})
