import type { PageIcons } from '../lib/icons.server'

declare global {
  namespace Vike {
    interface PageContext {
      /** The drawings of the content icons this page renders (pages/+onBeforeRender.ts). */
      icons?: PageIcons
    }
  }
}
