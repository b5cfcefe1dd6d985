import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { type CheerioAPI, load } from 'cheerio'
export { content, settings } from '../../tests/support/content'

// The browser-less suite reads the same build the Chromium tests load (`make test-browser`
// builds it into target/e2e/dist before either runs), as files: a check of markup (headings,
// links, meta, JSON-LD, attributes, text) parses a page in a millisecond, where a page load
// takes a second. Chromium keeps what only a browser shows: layout, interaction, focus, axe.

/** The build under test. */
export const distDir = path.resolve(import.meta.dirname, '../../../target/e2e/dist')

/** The file a route's URL is answered with (`/about` and `/about/` by `about/index.html`). */
export function fileOf(route: string): string {
  const clean = route.replace(/^\/+|\/+$/g, '')
  return path.join(distDir, clean, 'index.html')
}

const parsed = new Map<string, CheerioAPI>()

/** The built page of `route`, parsed once per test worker and shared by the tests that read it. */
export function html(route: string): CheerioAPI {
  return htmlFile(path.relative(distDir, fileOf(route)))
}

/**
 * A built HTML file by its path from the output's root (`404.html`, the not-found page no
 * route names), parsed once per test worker.
 */
export function htmlFile(file: string): CheerioAPI {
  let page = parsed.get(file)
  if (page === undefined) {
    const full = path.join(distDir, file)
    if (!existsSync(full)) throw new Error(`no page is built at ${file} (looked for ${full})`)
    page = load(readFileSync(full, 'utf8'))
    parsed.set(file, page)
  }
  return page
}

/** A file of the build as text, by its path from the output's root (`sitemap.xml`). */
export function builtText(file: string): string {
  return readFileSync(path.join(distDir, file), 'utf8')
}
