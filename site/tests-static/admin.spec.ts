import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { builtText, distDir } from './support/built'

// The content editor (/admin/) is published only when content/site.yaml has `cms:`; the e2e
// build's content has none, so its output must have no trace of the editor: no folder, no rule
// in _headers, no page, sitemap entry or feed item naming it. (A build with `cms:` is
// sitegen/tests/it/cms_live.rs.)

/** Every file of the output but the compressed variants, by its path from the root. */
function builtFiles(dir = distDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return builtFiles(full)
    return /\.(br|gz)$/.test(entry.name) ? [] : [path.relative(distDir, full)]
  })
}

test('a build without cms: has no /admin/ at all', () => {
  expect(existsSync(path.join(distDir, 'admin'))).toBe(false)
  expect(builtText('_headers')).not.toContain('/admin')
})

test('no page, sitemap entry, feed or search index of the site names /admin/', () => {
  const naming = builtFiles()
    .filter((file) => /\.(html|xml|json|txt)$/.test(file))
    .filter((file) => /\/admin\b/.test(readFileSync(path.join(distDir, file), 'utf8')))
  expect(naming).toEqual([])
})
