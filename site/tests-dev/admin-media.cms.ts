// Pictures and new articles in the browser editor of `sitegen dev`: an article created in /admin/
// with a picture uploaded there and its Estonian version beside it lands under content/ in the
// project's layout, the dev server shows it with its picture, and the real `sitegen build` of that
// content publishes it; an upload that is no picture and a picture without its alternative text
// are refused, and nothing is written.
// Alone: `cd site && npx playwright test -c playwright.dev.config.ts --project=admin admin-media`.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { attachDevOutput, startDev } from './devServer'
import { logIn, publish } from './editor'

const repo = path.resolve(import.meta.dirname, '../..')
/** 480 x 270 pixels, the narrowest an article's illustration may be; 2 KB. */
const PICTURE = path.join(import.meta.dirname, 'fixtures/tiles-480x270.png')

test.afterEach(attachDevOutput)

/** Opens the form of a new article in the editor at `url`. */
async function newArticle(page: Page, url: string) {
  await logIn(page, url)
  await page.goto(new URL('/admin/#/collections/articles/new', url).href)
  await expect(page.getByLabel('Title', { exact: true }).first()).toBeVisible()
}

/** Chooses `option` in the select labelled `label` (the source language's form). */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click()
  await page.keyboard.type(option)
  await page.keyboard.press('Enter')
}

/** Fills the fields of the article every test writes, the picture and its text aside. */
async function fillArticle(page: Page, title: string) {
  await page.getByLabel('Title', { exact: true }).first().fill(title)
  await page.getByLabel('Excerpt', { exact: true }).first().fill('Written and illustrated in the browser editor.')
  await choose(page, 'Author', 'maria-tamm')
  await page.getByLabel('Date', { exact: true }).first().fill('2026-12-07')
  await choose(page, 'Category', 'cloud-services')
  await choose(page, 'Type', 'article:')
  const body = page.locator('[data-slate-editor="true"]').first()
  await body.click()
  await page.keyboard.type('A picture chosen in the media library, written beside the article.')
}

/** Uploads `file` in the media library of the article's picture and chooses it. */
async function uploadPicture(page: Page, file: string) {
  await page.getByRole('button', { name: /choose an image/i }).first().click()
  await page.locator('input[type="file"]').setInputFiles(file)
  await page.getByRole('button', { name: /choose selected/i }).click()
}

test('an article created in /admin/ with an uploaded picture is written, shown and built', async ({ page }) => {
  const dev = await startDev()
  const out = mkdtempSync(path.join(os.tmpdir(), 'sitegen-media-build-'))
  try {
    const slug = 'pictures-from-the-browser'
    await newArticle(page, dev.url)
    await fillArticle(page, 'Pictures from the browser')
    await uploadPicture(page, PICTURE)
    await page.getByLabel('Image alt', { exact: true }).first().fill('Tiles in green and blue')
    // The Estonian version beside it: its words and its own slug.
    await page.getByLabel('Title', { exact: true }).nth(1).fill('Pildid brauserist')
    await page.getByLabel('Excerpt', { exact: true }).nth(1).fill('Kirjutatud ja illustreeritud toimetis.')
    await page.getByLabel('Image alt', { exact: true }).nth(1).fill('Rohelised ja sinised ruudud')
    await page.getByLabel('Slug (optional)', { exact: true }).nth(1).fill('pildid-brauserist')
    await page.locator('[data-slate-editor="true"]').nth(1).click()
    await page.keyboard.type('Toimetis brauseris.')
    await publish(page)

    const article = path.join(dev.contentDir, `articles/${slug}.md`)
    const picture = path.join(dev.contentDir, 'images/tiles-480x270.png')
    await expect.poll(() => existsSync(article)).toBe(true)
    expect(readFileSync(picture)).toEqual(readFileSync(PICTURE))
    // The project's layout: the model's order, plain values, the body after a blank line.
    expect(readFileSync(article, 'utf8')).toBe(
      [
        '---',
        'title: Pictures from the browser',
        'excerpt: Written and illustrated in the browser editor.',
        'author: maria-tamm',
        'date: 2026-12-07',
        'category: cloud-services',
        'type: article',
        'image: /images/tiles-480x270.png',
        'image_alt: Tiles in green and blue',
        '---',
        '',
        'A picture chosen in the media library, written beside the article.',
        '',
      ].join('\n'),
    )

    // The translation beside it, named by the source, its own slug inside, recorded as following
    // the source it was written with.
    const translation = readFileSync(path.join(dev.contentDir, `articles/${slug}.et.md`), 'utf8')
    expect(translation).toMatch(/^---\n# translated_from: [0-9a-f]{16}\n/)
    expect(translation.split('\n').slice(2).join('\n')).toBe(
      [
        'title: Pildid brauserist',
        'excerpt: Kirjutatud ja illustreeritud toimetis.',
        'image_alt: Rohelised ja sinised ruudud',
        'slug: pildid-brauserist',
        '---',
        '',
        'Toimetis brauseris.',
        '',
      ].join('\n'),
    )

    // The dev server shows the article with its picture loaded, and its Estonian version.
    const site = await page.context().newPage()
    await site.goto(new URL(`/insights/${slug}/`, dev.url).href)
    await expect(site.getByRole('heading', { level: 1, name: 'Pictures from the browser' })).toBeVisible()
    const shown = site.getByRole('img', { name: 'Tiles in green and blue' }).first()
    await expect(shown).toBeVisible()
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
    await site.goto(new URL('/et/insights/pildid-brauserist/', dev.url).href)
    await expect(site.getByRole('heading', { level: 1, name: 'Pildid brauserist' })).toBeVisible()

    // It builds: the real `sitegen build` of that content, its page with the picture.
    const bin = process.env.SITEGEN_BIN || path.join(repo, 'target/debug/sitegen')
    const dist = path.join(out, 'dist')
    const began = performance.now()
    execFileSync(
      bin,
      ['build', '--quiet', '--content', dev.contentDir, '--site', path.join(repo, 'site'), '--out', dist, '--cache-dir', path.join(out, 'cache')],
      { cwd: repo, stdio: 'pipe', timeout: 900_000 },
    )
    const seconds = ((performance.now() - began) / 1000).toFixed(1)
    test.info().annotations.push({ type: 'sitegen build', description: `${seconds} s` })
    console.log(`sitegen build of the content with the new article: ${seconds} s`)
    const html = readFileSync(path.join(dist, `insights/${slug}/index.html`), 'utf8')
    expect(html).toContain('<h1')
    expect(html).toMatch(/<picture>.*<img[^>]*alt="Tiles in green and blue"/s)
    // The picture encoded by the build's images stage, where its AVIF source says.
    const avif = /<source[^>]*type="image\/avif"[^>]*srcSet="([^" ]+)/.exec(html)?.[1]
    expect(avif).toBeDefined()
    expect(existsSync(path.join(dist, decodeURI(avif ?? '')))).toBe(true)
    expect(readFileSync(path.join(dist, 'et/insights/pildid-brauserist/index.html'), 'utf8')).toContain('Pildid brauserist')
  } finally {
    await dev.stop()
    rmSync(out, { recursive: true, force: true })
  }
})

test('an upload that is no picture, and a picture without its text, are refused and nothing is written', async ({ page }) => {
  const dev = await startDev()
  try {
    const articles = readdirSync(path.join(dev.contentDir, 'articles')).sort()
    const images = readdirSync(path.join(dev.contentDir, 'images'), { recursive: true }).map(String).sort()
    const unchanged = () => {
      expect(readdirSync(path.join(dev.contentDir, 'articles')).sort()).toEqual(articles)
      expect(readdirSync(path.join(dev.contentDir, 'images'), { recursive: true }).map(String).sort()).toEqual(images)
    }

    // No alternative text: the editor's own check at the field, before any request.
    await newArticle(page, dev.url)
    await fillArticle(page, 'A picture that says nothing')
    await uploadPicture(page, PICTURE)
    await publish(page)
    await expect(page.getByText(/image alt is required/i).first()).toBeVisible()
    unchanged()

    // A file that is no picture, named as one: refused by sitegen dev with why.
    const notes = path.join(dev.contentDir, '..', 'notes.png')
    writeFileSync(notes, '%PDF-1.7 not a picture')
    await page.getByRole('button', { name: /remove image/i }).first().click()
    await uploadPicture(page, notes)
    await page.getByLabel('Image alt', { exact: true }).first().fill('A document')
    await publish(page)
    await expect(page.getByText(/notes\.png: the file is not a PNG picture/)).toBeVisible()
    unchanged()
  } finally {
    await dev.stop()
  }
})
