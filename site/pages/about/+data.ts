import { loadContent } from '../../lib/content.server'

export type Data = ReturnType<typeof data>

export function data() {
  return loadContent().pages.about
}
