import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { visit } from './support/visit'

// The Estonian site beside the English one, as a visitor meets it. The language switcher's
// links and the pages they lead to are checked without a browser in tests-static/i18n.spec.ts.
const estonian = content.translations?.find((t) => t.settings.language === 'et')
if (!estonian) throw new Error('the content has no Estonian translation')

test('the Estonian search finds an Estonian article by a word with õ typed as o', async ({ page }) => {
  // A word of an Estonian title with õ, typed without it.
  const article = estonian.articles.find((a) => /\p{L}*õ\p{L}*/u.test(a.title))
  const word = article?.title.match(/\p{L}*õ\p{L}*/u)?.[0]
  if (!article || !word) throw new Error('no Estonian title with õ')
  const route = estonian.routes.find((r) => r.kind === 'article' && r.params.slug === article.slug)
  await visit(page, estonian.routes.find((r) => r.kind === 'insights')?.path ?? '/et/insights')
  const box = page.getByRole('searchbox', { name: estonian.pages.insights.search.label })
  await box.focus()
  await box.pressSequentially(word.toLowerCase().replaceAll('õ', 'o'))
  await expect(page.locator('[data-search-list] a').first()).toHaveAttribute('href', route?.path ?? '')
})

// The Estonian not-found page's language and heading are checked in tests-static/i18n.spec.ts,
// over the built et/404.html; here, that the server answers a missing /et/ path with it.
test('an unknown path under /et/ answers the Estonian not-found page', async ({ page }) => {
  const response = await page.goto('/et/puuduv-leht')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(estonian.settings.not_found.title)
})

test("the Estonian contact form's file picker and country list speak the page's language", async ({ page }) => {
  const route = estonian.routes.find((r) => r.kind === 'contact')
  const words = estonian.forms.contact.fields.attachments
  const code = estonian.settings.languages.find((l) => l.tag === 'et')?.country_code
  if (!route || !code) throw new Error('no Estonian contact page, or no dialling code for Estonian')
  await visit(page, route.path)
  const form = page.getByRole('form', { name: estonian.forms.contact.title })
  const face = form.locator('[data-file-face]')
  await expect(face).toBeVisible()
  await expect(face).toContainText(words.choose)
  await expect(face).toContainText(words.none_chosen)
  // The browser's own words (in its language) are under the face, unseen.
  const input = form.getByLabel(words.label)
  await expect(input).toHaveCSS('opacity', '0')
  await input.setInputFiles({ name: 'brief.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n') })
  await expect(face).toContainText('brief.pdf')
  await expect(face).not.toContainText(words.none_chosen)

  const country = form.getByRole('combobox', { name: estonian.forms.contact.fields.country_code.label })
  await expect(country).toHaveValue(code)
  const estonia = estonian.countries.find((c) => c.code === code)
  await expect(country.locator('option:checked')).toHaveText(`${code} ${estonia?.name ?? ''}`)
})
