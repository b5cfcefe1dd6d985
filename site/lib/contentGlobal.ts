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

/**
 * The translation of `content` the page at `path` belongs to: the one that has a route at
 * `path`, or whose home `path` is below (its not-found page); undefined for the default
 * language's pages.
 */
export function translationAt(content: SiteContent, path: string): SiteContent | undefined {
  return content.translations?.find((t) => {
    const home = t.routes.find((r) => r.kind === 'home')?.path
    return t.routes.some((r) => r.path === path) || (home !== undefined && path.startsWith(`${home}/`))
  })
}
