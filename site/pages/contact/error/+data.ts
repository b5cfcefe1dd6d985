import { loadContent } from '../../../lib/content.server'

export type Data = ReturnType<typeof data>

/** The page a form sent without JavaScript ends on when the message could not be accepted. */
export function data() {
  return loadContent().forms.error
}
