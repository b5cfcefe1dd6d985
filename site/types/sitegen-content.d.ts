// The content JSON, imported through the `sitegen:content` alias set in vite.config.ts.
// Only named imports are meant to be used so Vite keeps just those keys in a bundle.
declare module 'sitegen:content' {
  import type { Settings } from '../schema/Settings'

  export const settings: Settings
}
