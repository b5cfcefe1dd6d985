// The server bundle's entry for `sitegen build`'s render workers (render/worker.mjs), built beside
// Vike's own server entry (see vite.config.ts). Everything a worker needs from the bundle comes
// through here, so it shares one instance of each module with the pages it renders.
import { createHash } from 'node:crypto'
import { withBodyDigests } from '../lib/articles.server'
import { setContent as setContentGlobal } from '../lib/contentGlobal'
import { dataAtPath } from '../lib/pageData.server'
import { picturesIn } from '../lib/pictures.server'
import { frameContent } from '../lib/settings'
import type { SiteContent } from '../schema/SiteContent'
import { type ReadScheme, readsOf, tracked } from './reads'

export { renderPage } from 'vike/server'

// Whether the content was set without a scheme of its reads: each page's inputs then read it all.
let untracked = false

/**
 * Makes `content` what the pages render, noting what each page's inputs read of it by `scheme`.
 * Without one (a test rendering a content of its own), every page reads the whole content.
 */
export function setContent(content: SiteContent, scheme?: ReadScheme): void {
  untracked = !scheme
  setContentGlobal(scheme ? tracked(content, scheme) : content)
}

/**
 * A hash of everything the page at `path` renders besides the bundle: its path, its `+data` (an
 * article's body by its digest), the encoded photos it names and the frame's content
 * (lib/settings.ts). Two builds with the same bundle and the same hash render the same HTML, so
 * sitegen renders a page again only when this changes. With it, what the hash read of the
 * content (render/reads.ts): sitegen hashes the page again only when one of those changes.
 */
export function inputsHash(path: string): { hash: string; reads: string[] } {
  const [hash, reads] = readsOf(() => {
    const data = withBodyDigests(() => dataAtPath(path))
    return createHash('sha256')
      .update(JSON.stringify([path, data, picturesIn(data)]))
      .update(frameDigest())
      .digest('hex')
  })
  return { hash, reads: untracked ? ['*'] : reads }
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
