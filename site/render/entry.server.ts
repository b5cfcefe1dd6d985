// The server bundle's entry for `sitegen build`'s render workers (render/worker.mjs), built beside
// Vike's own server entry (see vite.config.ts). Everything a worker needs from the bundle comes
// through here, so it shares one instance of each module with the pages it renders.
import { createHash } from 'node:crypto'
import { withBodyDigests } from '../lib/articles.server'
import { routeByPath } from '../lib/content.server'
import { setContent as setContentGlobal, translationAt } from '../lib/contentGlobal'
import { dataAtPath } from '../lib/pageData.server'
import { picturesIn } from '../lib/pictures.server'
import { frameContent } from '../lib/settings'
import type { SiteContent } from '../schema/SiteContent'
import { type ReadScheme, readsOf, tracked } from './reads'

export { renderPage } from 'vike/server'
export { learn, renderThin } from './thin'

// Whether the content was set without a scheme of its reads: each page's inputs then read it all.
let untracked = false
// The content as sitegen gave it (the default language's), and as the pages read it.
let given: { raw: SiteContent; view: SiteContent } | undefined
// Whether the page being hashed or rendered is a translation's.
let translated = false

/**
 * Makes `content` what the pages render, noting what each page's inputs read of it by `scheme`.
 * Without one (a test rendering a content of its own), every page reads the whole content.
 */
export function setContent(content: SiteContent, scheme?: ReadScheme): void {
  untracked = !scheme
  given = { raw: content, view: scheme ? tracked(content, scheme) : content }
  translated = false
  setContentGlobal(given.view)
}

/**
 * Makes the content of the language `path` is published in what the pages render: a
 * translation's when one of its routes (or its not-found page, below its home) is at `path`.
 * Called before a page is hashed or rendered, out of the hash's reads: a translation's page
 * reads the translations as a whole.
 */
export function showLanguageOf(path: string): void {
  if (!given) return
  const translation = translationAt(given.raw, path)
  translated = translation !== undefined
  setContentGlobal(translation ?? given.view)
}

/**
 * A hash of everything the page at `path` renders besides the bundle: its path, its `+data` (an
 * article's body by its digest), the encoded photos it names, its versions in other languages
 * (the head's alternates and the language switcher) and the frame's content
 * (lib/settings.ts). Two builds with the same bundle and the same hash render the same HTML, so
 * sitegen renders a page again only when this changes. With it, what the hash read of the
 * content (render/reads.ts): sitegen hashes the page again only when one of those changes.
 */
export function inputsHash(path: string): { hash: string; reads: string[] } {
  showLanguageOf(path)
  const [hash, reads] = readsOf(() => {
    const data = withBodyDigests(() => dataAtPath(path))
    return createHash('sha256')
      .update(JSON.stringify([path, data, picturesIn(data), routeByPath(path)?.versions]))
      .update(frameDigest())
      .digest('hex')
  })
  return { hash, reads: untracked ? ['*'] : translated ? ['translations'] : reads }
}

// The frame is the same for every page of a content: serialised and hashed once per content.
let frame: { content: object; digest: string } | undefined

function frameDigest(): string {
  const content = frameContent()
  if (frame?.content !== content.settings) {
    frame = { content: content.settings, digest: createHash('sha256').update(JSON.stringify(content)).digest('hex') }
  }
  return frame.digest
}
