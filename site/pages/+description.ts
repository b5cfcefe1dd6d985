import type { PageContext } from 'vike/types'
import type { PageDataBase } from '../lib/pageMeta'

// `<meta name="description">` of every page: its data's `meta.description` (lib/pageMeta.ts).
export default (pageContext: PageContext<PageDataBase>) => pageContext.data.meta.description
