import path from 'node:path'

/**
 * Where the content JSON written by `sitegen build` / `sitegen export` is: `$SITEGEN_CONTENT`,
 * else `.sitegen/content.json`, relative to the site directory. vite.config.ts resolves it once
 * for the site (the `sitegen:content` alias); the browser tests read the same file.
 */
export function contentFile(siteDir: string): string {
  return path.resolve(siteDir, process.env.SITEGEN_CONTENT || '.sitegen/content.json')
}
