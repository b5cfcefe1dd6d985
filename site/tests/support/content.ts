import { readFileSync } from 'node:fs'
import path from 'node:path'
import { contentFile } from '../../lib/contentFile'
import type { SiteContent } from '../../schema/SiteContent'

// The content the site under test was built from: the same JSON sitegen hands to the
// prerender (`make test-browser` exports it and sets SITEGEN_CONTENT).
const siteDir = path.resolve(import.meta.dirname, '../..')
export const content: SiteContent = JSON.parse(readFileSync(contentFile(siteDir), 'utf8')) as SiteContent
export const { settings } = content

/** The path as the site links it, e.g. `/about`, from a visited URL. */
export function pathOf(url: string): string {
  const { pathname } = new URL(url)
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
}
