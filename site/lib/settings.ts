// Site-wide settings (brand, navigation, footer, not-found copy, UI strings) for the layout.
//
// They come from the content being rendered (lib/content.server.ts), not from a page's `+data`:
// the layout needs them on every page, including the 404 page, which Vike renders without the
// missing route's data. Only the renderer reads them (pages are HTML-only); no browser script
// imports this module.
import type { Settings } from '../schema/Settings'
import { loadContent, type SiteContent } from './content.server'

/**
 * Everything a page renders besides its own `+data`: the frame's settings and the feed's
 * address. A page's rendered HTML is a function of its path, its data and this (and the bundle),
 * which is how `sitegen build` knows which pages to render again (render/entry.server.ts), and
 * all the editor's preview gives a page besides its data (admin/preview.tsx).
 */
export type Frame = Pick<SiteContent, 'settings' | 'feed_path'>

/** The frame of the content being rendered. */
export function frameContent(): Frame {
  const { settings, feed_path } = loadContent()
  return { settings, feed_path }
}

/** The site-wide settings. */
export function siteSettings(): Settings {
  return frameContent().settings
}

/** Where the Atom feed of the articles is published; every page's head links to it. */
export function feedPath(): string {
  return frameContent().feed_path
}
