import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { type Page, expect, test } from '@playwright/test'
import type { ErrorBody } from '../schema/ErrorBody'
import { contract } from '../schema/contract'
import { content } from './support/content'

// Components render what content gives them and hold no visitor-facing words of their own.
// This test proves it: it rebuilds the site from a copy of the content in which every string is
// wrapped in markers, then reads every rendered page. Any letter outside a marker (in text,
// alt, aria-label, placeholder or title) was written in a component instead of content/.
// The same holds for what the contact form shows when the service rejects fields.

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
  'tag',
  'value',
  'id',
  'path',
  'kind',
  'feed_path',
  'search_index_path',
])
/**
 * Keys whose whole value is identifiers: a route's parameters (slugs); the opening hours (days
 * of the week by their schema.org names, `HH:MM` times), which the page words through
 * `dates.hours`.
 */
const IDENTIFIERS = new Set(['params', 'opening_hours'])

/** An article's fields that are identifiers (slugs, an ISO date, a type) rather than words. */
const ARTICLE_IDENTIFIERS = new Set(['author', 'category', 'type', 'date'])

/** Rendered Markdown: each run of text between tags is marked, so every text node is. */
function markHtml(html: string): string {
  return html.replace(/>([^<]*\p{L}[^<]*)</gu, (_, text: string) => `>${OPEN}${text}${CLOSE}<`)
}

function markArticle(article: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(article).map(([k, v]) => [
      k,
      ARTICLE_IDENTIFIERS.has(k) ? v : k === 'html' && typeof v === 'string' ? markHtml(`>${v}<`).slice(1, -1) : mark(v, k),
    ]),
  )
}

function mark(value: unknown, key?: string): unknown {
  if (IDENTIFIERS.has(key ?? '')) return value
  if (key === 'articles' && Array.isArray(value)) return value.map((a) => markArticle(a as Record<string, unknown>))
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
  // Inside the site, so the server bundle finds the site's packages.
  mkdirSync(path.join(siteDir, '.sitegen'), { recursive: true })
  work = mkdtempSync(path.join(siteDir, '.sitegen', 'marked-'))
  const marked = path.join(work, 'content.json')
  // What sitegen made of the photos and the social cards is file paths and sizes (a card's
  // words are its page's title, marked where the page shows it).
  writeFileSync(marked, JSON.stringify({ ...(mark(content) as object), images: content.images, cards: content.cards }))
  // The bundle holds no content: built as sitegen builds it, then rendered with the marked
  // content by a render worker, as sitegen renders (render/worker.mjs).
  const bundle = path.join(work, 'out')
  execFileSync(process.execPath, [path.join(siteDir, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: siteDir,
    env: { ...process.env, SITEGEN_OUT_DIR: path.relative(siteDir, bundle) },
    stdio: 'pipe',
  })
  const paths = [...content.routes.map((route) => route.path), '/404.html']
  const requests = [{ op: 'content', file: marked }, ...paths.map((p) => ({ op: 'render', path: p }))]
  const output = execFileSync(process.execPath, [path.join(siteDir, 'render/worker.mjs'), bundle], {
    input: requests.map((r) => JSON.stringify(r)).join('\n') + '\n',
    env: { ...process.env, SITEGEN_OUT_DIR: bundle },
    maxBuffer: 1 << 30,
  })
  const replies = workerReplies(output)
  // Laid out as sitegen publishes them (/about -> about/index.html), beside the assets.
  const client = path.join(bundle, 'client')
  replies.slice(1).forEach((reply, i) => {
    const route = paths[i] ?? ''
    if (reply.error || reply.html === undefined) throw new Error(`${route}: ${reply.error}`)
    const file = route.endsWith('.html') ? route : `${route.replace(/\/$/, '')}/index.html`
    mkdirSync(path.dirname(path.join(client, file)), { recursive: true })
    writeFileSync(path.join(client, file), reply.html)
  })
  pages = htmlFiles(client)
})

/** A worker's answers: a line of JSON each, followed by `html_bytes` bytes of HTML where it names them. */
function workerReplies(output: Buffer): { html?: string; error?: string }[] {
  const replies = []
  for (let at = 0; at < output.length; ) {
    const end = output.indexOf(0x0a, at)
    const reply = JSON.parse(output.subarray(at, end).toString()) as { html?: string; error?: string; html_bytes?: number }
    at = end + 1
    if (reply.html_bytes !== undefined) {
      reply.html = output.subarray(at, at + reply.html_bytes).toString()
      at += reply.html_bytes
    }
    replies.push(reply)
  }
  return replies
}

test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

/** Every text and attribute in `root` of `page` holding letters outside the markers. */
function strayWords(page: Page, root = 'body'): Promise<string[]> {
  return page.evaluate(
    ([open, close, selector]) => {
      // Innermost markers first: a template of content holding other content (a sentence
      // around the opening hours, themselves of day names) nests its markers.
      const outside = (text: string) => {
        const marked = new RegExp(`${open}[^${open}${close}]*${close}`, 'gu')
        let rest = text
        for (let before = ''; before !== rest; ) [before, rest] = [rest, rest.replace(marked, '')]
        return rest.trim()
      }
      const words = (text: string) => /\p{L}/u.test(outside(text))
      const hits: string[] = []
      for (const scope of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement
          if (parent?.closest('script, style, template')) continue
          const text = node.textContent ?? ''
          if (words(text)) hits.push(`text "${outside(text)}"`)
        }
        for (const el of scope.querySelectorAll('*')) {
          for (const attr of ['alt', 'aria-label', 'placeholder', 'title']) {
            const value = el.getAttribute(attr)
            if (value && words(value)) hits.push(`${attr}="${outside(value)}" on <${el.localName}>`)
          }
        }
      }
      return hits
    },
    [OPEN, CLOSE, root] as const,
  )
}

test('every word on every page comes from content/', async ({ browser }) => {
  expect(pages.length).toBeGreaterThanOrEqual(content.routes.length + 1)
  // The prerendered HTML as a visitor without JavaScript receives it.
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  const stray: string[] = []
  for (const file of pages) {
    await page.setContent(readFileSync(file, 'utf8'), { waitUntil: 'domcontentloaded' })
    const found = await strayWords(page)
    const name = path.relative(path.join(work, 'out', 'client'), file)
    stray.push(...found.map((hit) => `${name}: ${hit}`))
  }
  await context.close()
  expect(stray, 'words written in components instead of content/').toEqual([])
})

test('the words shown for fields the contact service rejects come from content/', async ({ page }) => {
  // The marked build, served from a made-up origin; its form posts to the contact service,
  // which here rejects every field, each with another error code and an English message.
  const origin = 'http://marked.test'
  const client = path.join(work, 'out', 'client')
  await page.route(`${origin}/**`, (route) => {
    const pathname = decodeURIComponent(new URL(route.request().url()).pathname)
    const file = path.join(client, pathname.endsWith('/') ? `${pathname}index.html` : pathname)
    return route.fulfill({ path: file })
  })
  const fields = Object.values(contract.contact.fields)
  const answer: ErrorBody = {
    error: 'Some fields need attention.',
    fields: Object.fromEntries(
      fields.map((field, i) => {
        const code = contract.errorCodes[i % contract.errorCodes.length] ?? 'required'
        return [field.name, { code, message: `The service says ${code}.` }]
      }),
    ),
  }
  const service = `${content.settings.contact_endpoint.replace(/\/+$/, '')}${contract.contact.path}`
  const cors = { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': 'POST' }
  let posted = 0
  await page.route(service, (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors })
    posted++
    return route.fulfill({ status: 422, headers: cors, contentType: 'application/json', body: JSON.stringify(answer) })
  })

  await page.goto(`${origin}/contact/`)
  const form = page.locator('form').filter({ has: page.locator(`[name="${contract.contact.fields.message.name}"]`) })
  await form.locator(`[name="${contract.contact.fields.name.name}"]`).fill('Ada Lovelace')
  await form.locator(`[name="${contract.contact.fields.email.name}"]`).fill('ada@example.org')
  await form.locator(`[name="${contract.contact.fields.phone.name}"]`).fill('20 7946 0958')
  await form.locator(`[name="${contract.contact.fields.subject.name}"]`).fill('Hello')
  await form.locator(`[name="${contract.contact.fields.message.name}"]`).fill('Hello there')
  await form.locator('button[type="submit"]').click()

  await expect(form.locator('[aria-invalid="true"]')).toHaveCount(fields.length)
  expect(posted).toBe(1)
  const shown = await form.locator('[aria-invalid="true"]').evaluateAll((controls) =>
    controls.map((control) =>
      (control.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    ),
  )
  expect(shown.join(' ')).not.toContain('The service says')
  expect(await strayWords(page, 'form, [data-sonner-toaster]'), 'words written in components instead of content/').toEqual([])
})
