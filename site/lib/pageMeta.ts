import type { PageContext } from 'vike/types'
import type { Meta } from '../schema/Meta'
import { settings } from './settings'

/**
 * The `<title>` and description of the page being rendered. Every page's `+data` returns an
 * object with a `meta` field; the error page has no data and uses the not-found copy.
 */
export function pageMeta(pageContext: PageContext): Meta {
  const data: unknown = pageContext.data
  if (!pageContext.is404 && typeof data === 'object' && data !== null && 'meta' in data) {
    return (data as { meta: Meta }).meta
  }
  return settings.not_found.meta
}
