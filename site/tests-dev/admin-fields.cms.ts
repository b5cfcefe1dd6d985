// The browser editor's saves field by field: a translation edited beside its source is a
// one-line diff of its own file, an invalid value is refused with its error under its field
// (not only in the notification) and the file left as it was, and a list item added is its new
// lines only. Alone: `cd site && npx playwright test -c playwright.dev.config.ts --project=admin admin-fields`.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { diffArrays } from 'diff'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { attachDevOutput, type DevServer, startDev } from './devServer'
import { logIn, publish } from './editor'

test.afterEach(attachDevOutput)

/** The lines removed (`-line`) and added (`+line`) from `before` to `after`, in order. */
function diff(before: string, after: string): string[] {
  return diffArrays(before.split('\n'), after.split('\n')).flatMap((change) =>
    change.added ? change.value.map((line) => `+${line}`) : change.removed ? change.value.map((line) => `-${line}`) : [],
  )
}

/** Opens the editor's entry `hash` (`collections/pages/entries/about`) in `page`. */
async function openEntry(page: Page, dev: DevServer, hash: string) {
  await logIn(page, dev.url)
  await page.goto(new URL(`/admin/#/${hash}`, dev.url).href)
}

/** The visible control labelled `label` whose value is `value` (the same label is in both languages). */
async function inputWith(page: Page, label: string, value: string): Promise<Locator> {
  const inputs = page.getByLabel(label, { exact: true })
  let found: Locator | undefined
  await expect(async () => {
    found = undefined
    for (let i = 0; i < (await inputs.count()); i++) {
      const input = inputs.nth(i)
      if ((await input.isVisible()) && (await input.inputValue()) === value) found = input
      if (found) break
    }
    expect(found, `a visible field ${label} holding ${JSON.stringify(value)}`).toBeDefined()
  }).toPass()
  return found as Locator
}

/** Opens every list whose summary (`4 items`) matches `summary`: Decap shows lists folded. */
async function unfold(page: Page, summary: RegExp) {
  const toggles = page.getByText(summary).getByRole('button', { name: 'Expand' })
  await expect(toggles.first()).toBeVisible()
  for (let i = 0; i < (await toggles.count()); i++) await toggles.nth(i).click()
}

/** The field's control wrapper of Decap around `input`: the nearest block holding its label. */
function wrapperOf(input: Locator, label: string): Locator {
  return input.locator(`xpath=ancestor::div[.//label[starts-with(normalize-space(.), "${label}")]][1]`)
}

test('the Estonian translation edited beside its source is one line of its own file', async ({ page }) => {
  const dev = await startDev()
  try {
    const source = path.join(dev.contentDir, 'pages/about.yaml')
    const translation = path.join(dev.contentDir, 'pages/about.et.yaml')
    const [english, estonian] = [readFileSync(source, 'utf8'), readFileSync(translation, 'utf8')]
    const site = await page.context().newPage()
    await site.goto(new URL('/et/about/', dev.url).href)
    await expect(site).toHaveTitle('Meist | Nordvale')

    await openEntry(page, dev, 'collections/pages/entries/about')
    // Both forms are open side by side: the source's title and the translation's.
    await expect(await inputWith(page, 'Title', 'About Us | Nordvale')).toBeVisible()
    const title = await inputWith(page, 'Title', 'Meist | Nordvale')
    await title.fill('Meist ja meie loost | Nordvale')
    await publish(page)
    await expect.poll(() => readFileSync(translation, 'utf8')).not.toBe(estonian)
    expect(diff(estonian, readFileSync(translation, 'utf8'))).toEqual([
      '-  title: Meist | Nordvale',
      '+  title: Meist ja meie loost | Nordvale',
    ])
    expect(readFileSync(source, 'utf8')).toBe(english)
    // The open Estonian page reloads with it.
    await expect(site).toHaveTitle('Meist ja meie loost | Nordvale')
  } finally {
    await dev.stop()
  }
})

test('a link to a missing page is refused with its error under its field, the file unchanged', async ({ page }) => {
  const dev = await startDev()
  try {
    const file = path.join(dev.contentDir, 'pages/about.yaml')
    const before = readFileSync(file, 'utf8')
    await openEntry(page, dev, 'collections/pages/entries/about')
    await unfold(page, /^1 actions?$/i)
    const href = await inputWith(page, 'Href', '/about#join-our-mission')
    await href.fill('/no-such-page')
    await publish(page)
    // The notification lists the mistake with its place in the file ...
    await expect(page.getByText(/not saved, the content would not be valid/)).toBeVisible()
    await expect(page.getByText(/content\/pages\/about\.yaml:\d+:\d+: .*\/no-such-page/).first()).toBeVisible()
    // ... and the field shows it, inside its own control's wrapper.
    const wrapper = wrapperOf(href, 'Href')
    await expect(wrapper.getByRole('listitem').filter({ hasText: '/no-such-page' })).toBeVisible()
    await expect(wrapper.locator('input')).toHaveValue('/no-such-page')
    expect(readFileSync(file, 'utf8')).toBe(before)
  } finally {
    await dev.stop()
  }
})

test('a date that is no date is refused with its error at the Date field', async ({ page }) => {
  const dev = await startDev()
  try {
    const file = path.join(dev.contentDir, 'articles/designing-event-driven-apis-that-scale.md')
    const before = readFileSync(file, 'utf8')
    await openEntry(page, dev, 'collections/articles/entries/designing-event-driven-apis-that-scale')
    const date = await inputWith(page, 'Date', '2024-02-14')
    await date.fill('someday')
    await publish(page)
    await expect(page.getByText(/not saved, the content would not be valid/)).toBeVisible()
    const wrapper = wrapperOf(date, 'Date')
    await expect(wrapper.getByRole('listitem').filter({ hasText: /date/i })).toBeVisible()
    await expect(wrapper.locator('input')).toHaveValue('someday')
    expect(readFileSync(file, 'utf8')).toBe(before)
  } finally {
    await dev.stop()
  }
})

test('a question added to the FAQ is its new lines only', async ({ page }) => {
  const dev = await startDev()
  try {
    const file = path.join(dev.contentDir, 'pages/contact.yaml')
    const before = readFileSync(file, 'utf8')
    await openEntry(page, dev, 'collections/pages/entries/contact')
    await unfold(page, /^4 items$/i)
    const last = await inputWith(page, 'Question', 'How do you handle regulatory compliance?')
    // The FAQ's list: the nearest block holding its last question and an add button.
    const list = last.locator('xpath=ancestor::div[.//button[starts-with(normalize-space(.), "Add")]][1]')
    await list.getByRole('button', { name: /^Add/ }).last().click()
    const added = await inputWith(page, 'Question', '')
    await added.fill('Can we start with a small pilot?')
    const answer = await inputWith(page, 'Answer', '')
    await answer.fill('Yes: most engagements start with a two-week discovery.')
    await publish(page)
    await expect.poll(() => readFileSync(file, 'utf8')).not.toBe(before)
    expect(diff(before, readFileSync(file, 'utf8'))).toEqual([
      '+    - question: Can we start with a small pilot?',
      '+      answer: "Yes: most engagements start with a two-week discovery."',
    ])
  } finally {
    await dev.stop()
  }
})
