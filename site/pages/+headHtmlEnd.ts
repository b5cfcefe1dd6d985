import type { PageContextServer } from 'vike/types'
import { enhancementPreloads } from '../lib/enhancementPreloads'

// Preloads the enhancements the rendered page names (vike-react renders the page before this).
export default (pageContext: PageContextServer) => enhancementPreloads(pageContext.pageHtmlString ?? '')
