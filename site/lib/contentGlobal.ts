// Where the content being rendered lives while a page renders: a global of the process, set by
// whoever renders (the render worker of `sitegen build`, render/worker.mjs, or the dev server's
// plugin, lib/devContent.ts) and read only by lib/content.server.ts. The content is data handed
// to the renderer, never a module of the bundle, so the bundle is a function of site/ alone.
import type { SiteContent } from '../schema/SiteContent'

const KEY = Symbol.for('sitegen.content')

type WithContent = { [KEY]?: SiteContent }

/** Makes `content` the content every later render reads. */
export function setContent(content: SiteContent): void {
  ;(globalThis as WithContent)[KEY] = content
}

/** The content set last, if any. */
export function currentContent(): SiteContent | undefined {
  return (globalThis as WithContent)[KEY]
}
