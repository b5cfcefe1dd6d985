import { expect, test } from '@playwright/test'
import { content, settings } from './support/content'
import { AUDIT_WIDTHS, auditContext, auditedViolations } from './support/sections'
import { pageErrors } from './support/pageErrors'
import { visit } from './support/visit'

// Every route of the content, and the not-found page, opened once each: the page renders inside
// the layout with its own head, hydrates without an error, and axe finds no WCAG 2.1 A/AA
// violation at desktop and phone widths, with the first disclosure of its main content (an FAQ
// item, a filter) open. The forms' states and the search results have their own audits
// (forms.spec.ts, articles.spec.ts).
const notFound = { path: '/no-such-page', title: undefined, description: undefined, settings }
// And one page of each kind below in every translation, in its own frame and words.
const TRANSLATED_KINDS = ['home', 'article', 'contact']
const translated = (content.translations ?? []).flatMap((translation) =>
  TRANSLATED_KINDS.flatMap((kind) => {
    const route = translation.routes.find((r) => r.kind === kind)
    return route ? [{ ...route, settings: translation.settings }] : []
  }),
)
const pages = [...content.routes.map((route) => ({ ...route, settings })), notFound, ...translated]
// Every page is audited at the desktop width; the first page of each kind (and of each
// language) at the phone width too. The pages of one kind share their template, whose phone
// layout is what the narrow audit checks: auditing each of two dozen sub-service pages at
// both widths would double the suite's longest file and find nothing the first does not.
const seenKinds = new Set<string>()
const widthsOf = (route: (typeof pages)[number]) => {
  const key = `${route.settings.language}:${'kind' in route ? route.kind : 'not-found'}`
  if (seenKinds.has(key)) return AUDIT_WIDTHS.slice(0, 1)
  seenKinds.add(key)
  return AUDIT_WIDTHS
}

// axe walks the whole DOM twice per page: allow it more than the default test time.
test.describe.configure({ timeout: 180_000 })

test('the content lists the routes of the site', () => {
  expect(content.routes.length).toBeGreaterThan(0)
  expect(content.routes.map((r) => r.path)).toContain('/')
})

for (const route of pages) {
  const widths = widthsOf(route)
  test(`${route.path} renders inside the layout, without errors, and passes axe at ${widths.join(' and ')} px`, async ({ browser }) => {
    const context = await auditContext(browser)
    const page = await context.newPage()
    const { settings } = route
    // The not-found page is answered with its status, which the browser logs.
    const errors = pageErrors(page, (message) => route === notFound && message.text().includes('404'))

    const response = await visit(page, route.path)
    expect(response?.status()).toBe(route === notFound ? 404 : 200)
    if (route.title !== undefined) {
      await expect(page).toHaveTitle(route.title)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', route.description ?? '')
      const canonical = `${settings.base_url}${route.path === '/' ? '/' : `${route.path}/`}`
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonical)
    }
    await expect(page.locator('html')).toHaveAttribute('lang', settings.language)

    await expect(page.getByRole('navigation', { name: settings.ui.main_nav_label })).toBeVisible()
    await expect(page.getByRole('link', { name: settings.nav.home_label }).first()).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    const footer = page.getByRole('contentinfo')
    await expect(footer).toBeVisible()
    await expect(footer.getByText(settings.footer.copyright)).toBeVisible()
    // Hydration ran (visit waits for it) without errors; a mismatch would log one.
    expect(errors).toEqual([])

    const disclosure = page.locator('main details > summary').first()
    if ((await disclosure.count()) > 0) await disclosure.click()
    expect(await auditedViolations(page, widths)).toEqual([])
    await context.close()
  })
}
