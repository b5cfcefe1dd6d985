import { expect, type Page, test } from '@playwright/test'
import { content } from './support/content'
import { frameworkAssets, recordAssets } from './support/islands'
import { visit } from './support/visit'

// Pages are HTML-only: React renders them at build time, and the browser gets the HTML, one
// stylesheet and small framework-free enhancements. React, react-dom and sonner reach the
// browser only with a form's island, once a visitor reaches for the form.

const routes = [...content.routes.map((route) => route.path), '/no-such-page']

/** Keeps the browser from ever calling back when idle, so no island hydrates by itself. */
async function neverIdle(page: Page) {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0
  })
}

test.describe('every route', () => {
  test('loads no React, react-dom or sonner until a form is used, and one stylesheet', async ({ page }) => {
    test.slow()
    await neverIdle(page)
    for (const path of routes) {
      const assets = recordAssets(page)
      await visit(page, path)
      await page.waitForLoadState('networkidle')
      const loaded = await assets()
      expect(frameworkAssets(loaded), path).toEqual([])
      // The one render-blocking stylesheet.
      await expect(page.locator('link[rel="stylesheet"]'), path).toHaveCount(1)
      page.removeAllListeners('response')
    }
  })

  test('the prerendered HTML has no inline style and no script but data and speculation rules', async ({ page }) => {
    for (const path of routes) {
      const html = await (await page.request.get(path)).text()
      expect(html, path).not.toMatch(/<style[\s>]/)
      expect(html, path).not.toMatch(/\sstyle="/)
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map(([, attributes]) => attributes ?? '')
      for (const attributes of scripts) {
        // Data blocks (JSON, schema.org JSON-LD) are never executed.
        expect(attributes, path).toMatch(/\bsrc="|type="(application\/json|application\/ld\+json|speculationrules)"/)
      }
    }
  })

  test('speculation rules are present, valid JSON, and prerender same-origin links on intent', async ({ page }) => {
    for (const path of routes) {
      const html = await (await page.request.get(path)).text()
      const head = html.slice(0, html.indexOf('</head>'))
      const rules = [...head.matchAll(/<script type="speculationrules">(.*?)<\/script>/gs)].map(([, json]) => json ?? '')
      expect(rules, path).toHaveLength(1)
      const parsed = JSON.parse(rules[0] ?? '') as {
        prerender?: { source?: string; where?: { href_matches?: string }; eagerness?: string }[]
      }
      expect(parsed.prerender, path).toEqual([
        { source: 'document', where: { href_matches: '/*' }, eagerness: 'moderate' },
      ])
    }
  })

  test('raises no Content-Security-Policy violation, with the forms in use', async ({ page }) => {
    test.slow()
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective}: ${event.blockedURI} ${event.sample}`)
      })
    })
    const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
    const csp = (await page.request.get('/')).headers()['content-security-policy'] ?? ''
    expect(csp).toContain("script-src 'self' 'inline-speculation-rules'")
    expect(csp).not.toContain('unsafe-inline')
    for (const path of routes) {
      const assets = recordAssets(page)
      await visit(page, path)
      const form = page.locator('[data-island] form')
      if ((await form.count()) > 0) {
        // Hydrates the island, then an edit loads the toasts (React sets styles through the CSSOM).
        await form.getByRole('textbox').first().focus()
        await expect(page.locator('[data-island]')).toHaveAttribute('data-hydrated', 'true')
        await form.getByRole('textbox').first().fill('Ada')
        await expect
          .poll(async () => (await assets()).some(({ text }) => text.includes('data-sonner-toaster')), { message: path })
          .toBe(true)
      }
      expect(await violations(), path).toEqual([])
      page.removeAllListeners('response')
    }
  })
})

test.describe('scroll reveal', () => {
  test('content a jump skips over is shown, not left invisible above the viewport', async ({ page }) => {
    await visit(page, '/about')
    const waiting = page.locator('[data-reveal="hidden"]')
    expect(await waiting.count()).toBeGreaterThan(0)
    await page.keyboard.press('End')
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    // Nothing above the bottom of the viewport is still waiting to be revealed.
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll('[data-reveal="hidden"]')].filter(
            (element) => element.getBoundingClientRect().top < window.innerHeight,
          ).length,
        ),
      )
      .toBe(0)
  })

  test('an anchor link into the page shows the sections it passes', async ({ page }) => {
    await visit(page, '/about')
    await page.getByRole('main').getByRole('link', { name: 'Work With Us' }).first().click()
    await expect(page.locator('#join-our-mission')).toBeInViewport()
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll('[data-reveal="hidden"]')].filter(
            (element) => element.getBoundingClientRect().top < window.innerHeight,
          ).length,
        ),
      )
      .toBe(0)
  })
})
