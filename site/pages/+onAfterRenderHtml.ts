import type { PageContextServer } from 'vike/types'
import { withPartsIn } from '../lib/once.server'

// The parts of the frame rendered once for many pages go into the page's HTML here, before its
// head is made from it (lib/once.server.tsx); on any other render the HTML is left as it is.
export default (pageContext: PageContextServer) => {
  if (pageContext.pageHtmlString !== undefined) pageContext.pageHtmlString = withPartsIn(pageContext.pageHtmlString)
}
