import type { PageContext } from 'vike/types'
import { pageMeta } from '../lib/pageMeta'

// `<meta name="description">` of every page from its content (`meta.description`).
export default (pageContext: PageContext) => pageMeta(pageContext).description
