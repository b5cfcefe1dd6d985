import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { content } from './support/content'

// Components render what content gives them and hold no visitor-facing words of their own.
// This test proves it: it rebuilds the site from a copy of the content in which every string is
// wrapped in markers, then reads every prerendered page. Any letter outside a marker (in text,
// alt, aria-label, placeholder or title) was written in a component instead of content/.

const OPEN = '\u27e6' // ⟦
const CLOSE = '\u27e7' // ⟧

/** Keys whose strings are identifiers, paths or settings, never shown as words. */
const NOT_COPY = new Set([
  'href',
  'image',
  'logo',
  'avatar',
  'icon',
  'slug',
  'style',
  'base_url',
  'contact_endpoint',
  'language',
  'value',
  'id',
  'path',
  'kind',
])
/** Keys whose whole value is identifiers: a route's parameters (slugs). */
const IDENTIFIERS = new Set(['params'])

function mark(value: unknown, key?: string): unknown {
  if (IDENTIFIERS.has(key ?? '')) return value
  if (typeof value === 'string') return NOT_COPY.has(key ?? '') ? value : `${OPEN}${value}${CLOSE}`
  if (Array.isArray(value)) return value.map((item) => mark(item, key))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mark(v, k)]))
  }
  return value
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => path.join(dir, file))
}

const siteDir = path.resolve(import.meta.dirname, '..')
let work: string
let pages: string[] = []

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(300_000)
  // Inside the site: Vike's prerender only finds its server entry under the project root.
  mkdirSync(path.join(siteDir, '.sitegen'), { recursive: true })
  work = mkdtempSync(path.join(siteDir, '.sitegen', 'marked-'))
  const marked = path.join(work, 'content.json')
  writeFileSync(marked, JSON.stringify(mark(content)))
  execFileSync(process.execPath, [path.join(siteDir, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: siteDir,
    env: { ...process.env, SITEGEN_CONTENT: marked, SITEGEN_OUT_DIR: path.relative(siteDir, path.join(work, 'out')) },
    stdio: 'pipe',
  })
  pages = htmlFiles(path.join(work, 'out', 'client'))
})

test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

test('every word on every page comes from content/', async ({ browser }) => {
  expect(pages.length).toBeGreaterThanOrEqual(content.routes.length + 1)
  // The prerendered HTML as a visitor without JavaScript receives it.
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  const stray: string[] = []
  for (const file of pages) {
    await page.setContent(readFileSync(file, 'utf8'), { waitUntil: 'domcontentloaded' })
    const found = await page.evaluate(
      ([open, close]) => {
        const outside = (text: string) =>
          text.replace(new RegExp(`${open}[^${close}]*${close}`, 'gu'), '').trim()
        const words = (text: string) => /\p{L}/u.test(outside(text))
        const hits: string[] = []
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement
          if (parent?.closest('script, style, template')) continue
          const text = node.textContent ?? ''
          if (words(text)) hits.push(`text "${outside(text)}"`)
        }
        for (const el of document.body.querySelectorAll('*')) {
          for (const attr of ['alt', 'aria-label', 'placeholder', 'title']) {
            const value = el.getAttribute(attr)
            if (value && words(value)) hits.push(`${attr}="${outside(value)}" on <${el.localName}>`)
          }
        }
        return hits
      },
      [OPEN, CLOSE],
    )
    const name = path.relative(path.join(work, 'out', 'client'), file)
    stray.push(...found.map((hit) => `${name}: ${hit}`))
  }
  await context.close()
  expect(stray, 'words written in components instead of content/').toEqual([])
})
