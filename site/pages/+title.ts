import type { PageContext } from 'vike/types'
import { pageMeta } from '../lib/pageMeta'

// `<title>` of every page from its content (`meta.title`); see lib/pageMeta.ts.
export default (pageContext: PageContext) => pageMeta(pageContext).title
