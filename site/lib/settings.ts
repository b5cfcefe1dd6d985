// Site-wide settings (brand, navigation, footer, not-found copy, UI strings) for the layout.
//
// They come from the content JSON through Vite's JSON named exports (`sitegen:content` is an
// alias to the file; see vite.config.ts), not from a page's `+data`: the layout needs them on
// every page, including the 404 page, which Vike renders without the missing route's data,
// and during client-side navigation. Only the `settings` key is bundled — the rest of the
// JSON is tree-shaken — so they ship once in a shared, cached chunk instead of being repeated
// in every page's HTML.
import { settings as contentSettings } from 'sitegen:content'
import type { Settings } from '../schema/Settings'

export const settings: Settings = contentSettings
