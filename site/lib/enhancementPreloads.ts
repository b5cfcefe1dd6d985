import { readFileSync } from 'node:fs'
import { type ModuleName, sources } from '../enhance/modules'
import { clientManifestFile } from './buildOutput'

type Manifest = Record<string, { file: string; imports?: string[] }>

let manifest: Manifest | undefined

/**
 * The `<link rel="modulepreload">` tags for the enhancement modules a rendered page names
 * (`data-module`), and the chunks they import, from Vite's client manifest. The browser then
 * fetches them with the entry instead of after it (no request waterfall), and the page's
 * initial JavaScript is what its HTML says. The form island's own code (React) is not among
 * them: it loads only when a visitor reaches for a form. Empty under the development server,
 * which has no manifest and serves modules as they are asked for.
 */
export function enhancementPreloads(pageHtml: string): string {
  if (import.meta.env.DEV) return ''
  const named: string[] = []
  for (const [, value = ''] of pageHtml.matchAll(/\sdata-module="([^"]*)"/g)) named.push(value)
  // Pages of a kind name the same modules: their tags are made once.
  const key = named.join(' ')
  let tags = preloads.get(key)
  if (tags === undefined) preloads.set(key, (tags = preloadTags(named)))
  return tags
}

/** The preload tags of each list of modules pages named, by the list. */
const preloads = new Map<string, string>()

function preloadTags(named: string[]): string {
  manifest ??= JSON.parse(readFileSync(clientManifestFile(process.cwd()), 'utf8')) as Manifest
  const names = new Set<ModuleName>()
  for (const value of named) {
    for (const name of value.split(/\s+/)) {
      if (Object.hasOwn(sources, name)) names.add(name as ModuleName)
    }
  }
  const files = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest?.[key]
    if (!chunk) throw new Error(`${key} is not in Vite's client manifest`)
    if (files.has(chunk.file)) return
    files.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const name of names) visit(`enhance/${sources[name]}`)
  const base = import.meta.env.BASE_URL
  return [...files].map((file) => `<link rel="modulepreload" href="${base}${file}">`).join('')
}
