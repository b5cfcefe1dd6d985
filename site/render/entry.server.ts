// The server bundle's entry for `sitegen build`'s render workers (render/worker.mjs), built beside
// Vike's own server entry (see vite.config.ts). Everything a worker needs from the bundle comes
// through here, so it shares one instance of each module with the pages it renders.
import { createHash } from 'node:crypto'
import { withBodyDigests } from '../lib/articles.server'
import { dataAtPath } from '../lib/pageData.server'
import { picturesIn } from '../lib/pictures.server'
import { frameContent } from '../lib/settings'

export { renderPage } from 'vike/server'
export { setContent } from '../lib/contentGlobal'

/**
 * A hash of everything the page at `path` renders besides the bundle: its path, its `+data` (an
 * article's body by its digest), the encoded photos it names and the frame's content
 * (lib/settings.ts). Two builds with the same bundle and the same hash render the same HTML, so
 * sitegen renders a page again only when this changes.
 */
export function inputsHash(path: string): string {
  const data = withBodyDigests(() => dataAtPath(path))
  return createHash('sha256')
    .update(JSON.stringify([path, data, picturesIn(data)]))
    .update(frameDigest())
    .digest('hex')
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
