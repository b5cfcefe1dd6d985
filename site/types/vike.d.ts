import type { PageIcons } from '../lib/icons.server'
import type { PagePictures } from '../lib/pictures.server'

declare global {
  namespace Vike {
    interface PageContext {
      /** The drawings of the content icons this page renders (pages/+onBeforeRender.ts). */
      icons?: PageIcons
      /** The encoded photos this page shows, by content path (pages/+onBeforeRender.ts). */
      pictures?: PagePictures
    }
  }
}
