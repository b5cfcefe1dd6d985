// The browser editor of `sitegen dev` end to end: /admin/ loads Decap CMS with the generated
// configuration, an edit saved there (a service page's title, an article's) is a one-line diff
// of the file and shows in the open site page, and an invalid value is refused with its error
// while the file stays as it was.
// `make test` runs every editor test (project `admin`, after `dev`); alone:
// `cd site && npx playwright test -c playwright.dev.config.ts --project admin`.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { attachDevOutput, startDev } from './devServer'
import { logIn, publish } from './editor'

test.afterEach(attachDevOutput)

/** The lines of `after` that differ from the same lines of `before`, which has as many. */
function changedLines(before: string, after: string): string[] {
  const old = before.split('\n')
  const now = after.split('\n')
  expect(now.length).toBe(old.length)
  return now.filter((line, i) => line !== old[i])
}

test('an edit saved in /admin/ is a one-line diff, shows in the site, and an invalid one is refused', async ({ page }) => {
  const dev = await startDev()
  try {
    const file = path.join(dev.contentDir, 'services/cloud-services.yaml')
    const before = readFileSync(file, 'utf8')
    const site = await page.context().newPage()
    await site.goto(new URL('/services/cloud-services/', dev.url).href)

    await logIn(page, dev.url)
    // Decap checks the configuration against its own schema as it starts (it publishes none as
    // a file): a configuration it refuses shows its errors instead of the collections.
    for (const collection of ['Articles', 'Pages', 'Services', 'Settings', 'Redirects']) {
      await expect(page.getByRole('link', { name: collection, exact: true })).toBeVisible()
    }
    await expect(page.getByText('Error loading the CMS configuration')).toHaveCount(0)
    await page.goto(new URL('/admin/#/collections/services/entries/cloud-services', dev.url).href)
    // The English form beside the Estonian one: the first is the source's (`meta.title`).
    const title = page.getByLabel('Title', { exact: true }).first()
    await expect(title).toHaveValue('Cloud Services | Nordvale')
    await title.fill('Cloud Services and Platforms | Nordvale')
    await publish(page)
    await expect.poll(() => readFileSync(file, 'utf8')).not.toBe(before)
    expect(changedLines(before, readFileSync(file, 'utf8'))).toEqual(['  title: Cloud Services and Platforms | Nordvale'])
    // The open page of the site reloads with it, as after any save.
    await expect(site).toHaveTitle('Cloud Services and Platforms | Nordvale')

    // An article's title: one line of its front matter, the body as it was.
    const article = path.join(dev.contentDir, 'articles/designing-event-driven-apis-that-scale.md')
    const original = readFileSync(article, 'utf8')
    const editor = await page.context().newPage()
    await editor.goto(new URL('/admin/#/collections/articles/entries/designing-event-driven-apis-that-scale', dev.url).href)
    const heading = editor.getByLabel('Title', { exact: true }).first()
    await expect(heading).toHaveValue('Designing event-driven APIs that scale')
    await heading.fill('Designing event-driven APIs that last')
    await publish(editor)
    await expect.poll(() => readFileSync(article, 'utf8')).not.toBe(original)
    expect(changedLines(original, readFileSync(article, 'utf8'))).toEqual(['title: Designing event-driven APIs that last'])

    // A date that is no date: refused by the site's validation, the article left as it was.
    const written = readFileSync(article, 'utf8')
    const date = editor.getByLabel('Date', { exact: true }).first()
    await expect(date).toHaveValue('2024-02-14')
    await date.fill('someday')
    await publish(editor)
    await expect(editor.getByText(/not saved, the content would not be valid/)).toBeVisible()
    await expect(editor.getByText(/articles\/designing-event-driven-apis-that-scale\.md:\d+:\d+: .*date/)).toBeVisible()
    expect(readFileSync(article, 'utf8')).toBe(written)
  } finally {
    await dev.stop()
  }
})
