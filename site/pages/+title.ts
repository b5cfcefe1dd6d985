import type { PageContext } from 'vike/types'
import type { PageDataBase } from '../lib/pageMeta'

// `<title>` of every page: its data's `meta.title` (lib/pageMeta.ts).
export default (pageContext: PageContext<PageDataBase>) => pageContext.data.meta.title
