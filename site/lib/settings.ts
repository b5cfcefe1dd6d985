// Site-wide settings (brand, navigation, footer, not-found copy, UI strings) for the layout.
//
// They come from the content JSON through Vite's JSON named exports (`sitegen:content` is an
// alias to the file; see vite.config.ts), not from a page's `+data`: the layout needs them on
// every page, including the 404 page, which Vike renders without the missing route's data.
// Only the prerender reads them (pages are HTML-only); no browser script imports this module.
import { feed_path as contentFeedPath, settings as contentSettings } from 'sitegen:content'
import type { Settings } from '../schema/Settings'

export const settings: Settings = contentSettings

/** Where the Atom feed of the articles is published; every page's head links to it. */
export const feed_path: string = contentFeedPath
