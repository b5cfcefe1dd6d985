// The editor's preview pane is the site's own page: the page component of
// pages/insights/@slug/+Page.tsx (pages/about/+Page.tsx for the about page, pages/index/+Page.tsx
// for the home page with its islands, a service category's or one of its sub-services' page) with
// the site's stylesheet, fed the data a build gives it (sitegen's rendered body, the page's own
// `+data`), in the entry's language, following the typing. Alone (`--project` takes every word
// after it, hence the `=`):
// `cd site && npx playwright test -c playwright.dev.config.ts --project=admin admin-preview`.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, type FrameLocator, type Page, test } from '@playwright/test'
import { attachDevOutput, startDev } from './devServer'
import { logIn } from './editor'

test.afterEach(attachDevOutput)

const SLUG = 'designing-event-driven-apis-that-scale'

/** Opens the article `SLUG` in /admin/ with the preview pane shown, and returns the pane. */
async function openWithPreview(page: Page, url: string): Promise<FrameLocator> {
  await logIn(page, url)
  await page.goto(new URL(`/admin/#/collections/articles/entries/${SLUG}`, url).href)
  await expect(page.getByLabel('Title', { exact: true }).first()).toHaveValue('Designing event-driven APIs that scale')
  // The right pane starts as the translation's form; the preview is one toggle away.
  await page.getByTitle('Toggle preview').click()
  return page.frameLocator('#preview-pane')
}

test('the preview pane is the site’s own article page, following the typing', async ({ page }) => {
  const dev = await startDev()
  try {
    const file = path.join(dev.contentDir, `articles/${SLUG}.md`)
    const before = readFileSync(file, 'utf8')
    const pane = await openWithPreview(page, dev.url)

    // What only the real page component renders: the article labelled by its h1, the table of
    // contents, the body with sitegen's heading ids.
    const article = pane.locator('article[aria-labelledby="article-title"]')
    const title = article.locator('h1#article-title')
    await expect(title).toHaveText('Designing event-driven APIs that scale')
    const toc = article.locator('nav[aria-labelledby="toc-title"]')
    await expect(toc.locator('#toc-title')).toHaveText('On this page')
    await expect(article.locator('.article-body h2#start-with-the-contract')).toHaveText('Start with the contract')
    await expect(toc.getByRole('link', { name: 'Start with the contract' })).toHaveAttribute('href', '#start-with-the-contract')
    // Styled by the site's Tailwind build, not the browser's defaults: the title's size is the
    // `text-title` of pages/app.css (a 32px h1 is the browser's), the header its `bg-ink-50`.
    const fontSize = await title.evaluate((h1) => getComputedStyle(h1).fontSize)
    expect(fontSize).not.toBe('32px')
    const header = article.locator('header').first()
    expect(await header.evaluate((h) => getComputedStyle(h).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)')
    await expect(pane.locator('html')).toHaveAttribute('lang', 'en')

    // Typing in the title changes the preview's h1.
    await page.getByLabel('Title', { exact: true }).first().fill('Designing event-driven APIs that last')
    await expect(title).toHaveText('Designing event-driven APIs that last')

    // A new section in the body, typed as Markdown (the body's Rich Text / Markdown switch): a
    // heading with sitegen's id, and an entry of the contents.
    await page.locator('div:has(> [role="switch"])').filter({ hasText: 'Rich Text' }).getByRole('switch').click()
    await page.locator('[data-slate-editor="true"]').first().click()
    await page.keyboard.press('ControlOrMeta+End')
    await page.keyboard.press('Enter')
    await page.keyboard.type('## New section')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await page.keyboard.type('Written in the editor.')
    await expect(article.locator('.article-body h2#new-section')).toHaveText('New section')
    await expect(toc.getByRole('link', { name: 'New section' })).toHaveAttribute('href', '#new-section')

    // A date that is no date: the pane says why, and keeps the last page it could make.
    await page.getByLabel('Date', { exact: true }).first().fill('someday')
    await expect(pane.locator('[data-preview-errors]')).toContainText(`content/articles/${SLUG}.md`)
    await expect(title).toHaveText('Designing event-driven APIs that last')

    // A preview writes nothing.
    expect(readFileSync(file, 'utf8')).toBe(before)
  } finally {
    await dev.stop()
  }
})

test('the Estonian side previews in Estonian', async ({ page }) => {
  const dev = await startDev()
  try {
    const pane = await openWithPreview(page, dev.url)
    await page.getByRole('button', { name: 'Writing in EN' }).click()
    await page.getByRole('menuitem', { name: 'et', exact: true }).click()
    const article = pane.locator('article[aria-labelledby="article-title"]')
    await expect(article.locator('h1#article-title')).toHaveText('Skaleeruvate sündmuspõhiste API-de kujundamine')
    // The page's words are the Estonian ones (insights.et.yaml), the date in Estonian.
    await expect(article.locator('#toc-title')).toHaveText('Sellel lehel')
    await expect(article.locator('time')).toContainText('veebruar')
    await expect(pane.locator('html')).toHaveAttribute('lang', 'et')
  } finally {
    await dev.stop()
  }
})

// One sitegen dev for every page kind: starting one is most of a test's time.
test('pages are previewed with their own page components and islands, following the typing', async ({ page }) => {
  const dev = await startDev()
  try {
    /**
     * Opens the entry `name` of `collection` with the preview shown, and returns the pane. By way
     * of the collection's list: the editor keeps the entry it shows when only the address's slug
     * changes. The preview is toggled once: the editor remembers it for the next entries.
     */
    let toggled = false
    const open = async (name: string, collection = 'pages') => {
      await page.goto(new URL(`/admin/#/collections/${collection}`, dev.url).href)
      await expect(page.locator(`a[href$="/collections/${collection}/entries/${name}"]`)).toBeVisible()
      await page.goto(new URL(`/admin/#/collections/${collection}/entries/${name}`, dev.url).href)
      await expect(page.getByLabel('Title', { exact: true }).first()).not.toHaveValue('')
      if (!toggled) await page.getByTitle('Toggle preview').click()
      toggled = true
      return page.frameLocator('#preview-pane')
    }
    await logIn(page, dev.url)

    // pages/insights/+Page.tsx: the newsletter's island among its sections.
    let pane = await open('insights')
    await expect(pane.locator('main h1')).toHaveText('Ideas and lessons from the engineering frontline')
    await expect(pane.locator('main #featured-title')).toBeVisible()
    await expect(pane.locator('[data-island="newsletter-form"]')).toHaveCount(1)

    // pages/contact/+Page.tsx: the form's island and the cards of the site's contact settings.
    pane = await open('contact')
    await expect(pane.locator('[data-island="contact-form"] form')).toBeVisible()
    await expect(pane.locator('section[aria-labelledby="contact-cards-title"]').getByRole('link', { name: 'hello@nordvale.example' })).toBeVisible()
    await expect(pane.locator('[data-preview-errors]')).toHaveCount(0)

    // A service category makes its page and one per sub-service: the pane shows the category's
    // (pages/services/@category/+Page.tsx) and offers each sub-service's
    // (pages/services/@category/@service/+Page.tsx).
    pane = await open('cloud-services', 'services')
    await expect(pane.locator('main h1')).toHaveText('Cloud infrastructure that scales with you')
    const pages = pane.getByRole('navigation', { name: 'Pages this entry makes' })
    await expect(pages.getByRole('button', { name: 'Cloud Services | Nordvale' })).toHaveAttribute('aria-pressed', 'true')
    await pages.getByRole('button', { name: 'Cloud Migration | Nordvale' }).click()
    await expect(pane.locator('main h1')).toHaveText('Move to the cloud with confidence')
    await expect(pages.getByRole('button', { name: 'Cloud Migration | Nordvale' })).toHaveAttribute('aria-pressed', 'true')
    // The choice holds for the next pages made: the Estonian side shows the same sub-service.
    await page.getByRole('button', { name: 'Writing in EN' }).click()
    await page.getByRole('menuitem', { name: 'et', exact: true }).click()
    await expect(pane.locator('main h1')).toHaveText('Liikuge pilve enesekindlalt')
    await expect(pages.getByRole('button', { name: 'Pilvemigratsioon | Nordvale' })).toHaveAttribute('aria-pressed', 'true')

    // pages/index/+Page.tsx: the hero only HomeHero labels, and the enquiry form's island, whose
    // wrapper carries a label of the site's settings (islands/Island.tsx reads `siteSettings()`).
    pane = await open('home')
    const lead = page.getByLabel('Lead', { exact: true }).first()
    await expect(pane.locator('main h1#home-hero-title')).toContainText('Build what')
    const enquiry = pane.locator('[data-island="enquiry-form"]')
    await expect(enquiry).toHaveAttribute('data-toasts-label', 'Notifications')
    await expect(enquiry.locator('form')).toBeVisible()
    await lead.fill('A home lead typed in the editor.')
    await expect(pane.locator('main').getByText('A home lead typed in the editor.')).toBeVisible()
    // The Estonian side reads the Estonian settings.
    await page.getByRole('button', { name: 'Writing in EN' }).click()
    await page.getByRole('menuitem', { name: 'et', exact: true }).click()
    await expect(pane.locator('main h1#home-hero-title')).toContainText('Ehitage homset')
    await expect(enquiry).toHaveAttribute('data-toasts-label', 'Teavitused')

    // pages/about/+Page.tsx: its hero's h1 with the highlight the page marks. (Leaving the home
    // page typed in asks whether to drop its changes: yes, the preview saved nothing.)
    page.once('dialog', (dialog) => dialog.accept())
    pane = await open('about')
    await expect(lead).toHaveValue(/^We are a team of engineers/)
    await expect(pane.locator('main h1')).toHaveText('Engineering the future of business since 2019')
    await expect(pane.locator('main h1')).toContainText('future of business')
    await lead.fill('A lead typed in the editor.')
    await expect(pane.getByText('A lead typed in the editor.')).toBeVisible()
  } finally {
    await dev.stop()
  }
})
