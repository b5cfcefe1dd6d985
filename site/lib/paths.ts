/** `/about/` and `/about` are the same page: compare paths without the trailing slash. */
export function normalizePath(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '/'
  const trimmed = withoutQuery.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed
}

/** Whether `href` is the page at `pathname` (exact match, trailing slash ignored). */
export function isCurrentPage(href: string, pathname: string): boolean {
  return normalizePath(href) === normalizePath(pathname)
}

/** Whether `pathname` is `href` or below it, e.g. `/services/cloud-services` is within `/services`. */
export function isWithin(href: string, pathname: string): boolean {
  const base = normalizePath(href)
  const current = normalizePath(pathname)
  return base === '/' ? current === '/' : current === base || current.startsWith(`${base}/`)
}

/** Canonical URL of a page: the base URL plus the path with a trailing slash (directory style). */
export function canonicalUrl(baseUrl: string, pathname: string): string {
  const path = normalizePath(pathname)
  return `${baseUrl.replace(/\/+$/, '')}${path === '/' ? '/' : `${path}/`}`
}
