// Server-side access to the content JSON for the pages' `+data` hooks. Each hook returns only
// its own page's slice, so each prerendered HTML carries just the data that page renders.
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import type { SiteContent } from '../schema/SiteContent'

let cache: { file: string; mtimeMs: number; content: SiteContent } | undefined

/** Path of the content JSON: `$SITEGEN_CONTENT`, else `.sitegen/content.json` in the site directory. */
export function contentFile(): string {
  return path.resolve(process.env.SITEGEN_CONTENT || '.sitegen/content.json')
}

/** The whole site content, re-read when the file changes (so `npm run dev` picks up `make content`). */
export function loadContent(): SiteContent {
  const file = contentFile()
  let mtimeMs: number
  try {
    mtimeMs = statSync(file).mtimeMs
  } catch {
    throw new Error(
      `Content file not found: ${file}\n` +
        'Generate it with `make content` (or `target/debug/sitegen export`), or build the whole site with `sitegen build`.',
    )
  }
  if (cache?.file !== file || cache.mtimeMs !== mtimeMs) {
    let content: SiteContent
    try {
      content = JSON.parse(readFileSync(file, 'utf8')) as SiteContent
    } catch (error) {
      throw new Error(`Content file ${file} is not valid JSON; regenerate it with \`make content\`.`, {
        cause: error,
      })
    }
    cache = { file, mtimeMs, content }
  }
  return cache.content
}
