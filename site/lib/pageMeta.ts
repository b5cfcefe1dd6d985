import type { PageContext } from 'vike/types'
import type { Meta } from '../schema/Meta'
import { settings } from './settings'

function metaOf(value: unknown): Meta | undefined {
  if (typeof value === 'object' && value !== null && 'meta' in value) {
    return (value as { meta: Meta }).meta
  }
  return undefined
}

/**
 * The `<title>` and description of the page being rendered. A page's `+data` returns either
 * its page content (with a `meta` field) or an object whose `page` holds it, beside whatever
 * else the page needs (a form, the contact endpoint). The error page has no data and uses the
 * not-found copy.
 */
export function pageMeta(pageContext: PageContext): Meta {
  if (pageContext.is404) return settings.not_found.meta
  const data: unknown = pageContext.data
  const page = typeof data === 'object' && data !== null && 'page' in data ? data.page : undefined
  return metaOf(data) ?? metaOf(page) ?? settings.not_found.meta
}
