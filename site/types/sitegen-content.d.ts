// The content JSON, imported through the `sitegen:content` alias set in vite.config.ts.
// Client code imports named keys only (`settings`), so Vite keeps just those keys in a bundle;
// the server-only lib/content.server.ts takes the whole document.
declare module 'sitegen:content' {
  import type { Settings } from '../schema/Settings'
  import type { SiteContent } from '../schema/SiteContent'

  export const settings: Settings
  export const feed_path: string
  const content: SiteContent
  export default content
}
