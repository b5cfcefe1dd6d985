// The page context of the editor's preview (lib/devPreview.ts), made by the code that makes a
// built page's: the page's `+data` (lib/pageData.server.ts) and `+onBeforeRender` (its icons and
// pictures), over the content sitegen loaded with the entry in it; and the frame of that
// content (lib/settings.ts) that the page's components read besides their data. Loaded in the
// dev server only, never by a page.
import type { PageContextServer } from 'vike/types'
import { onBeforeRender } from '../pages/+onBeforeRender'
import { loadContent, type PageKind, type ParamsOf, pathOf, routeByPath } from '../lib/content.server'
import { currentContent, setContent } from '../lib/contentGlobal'
import { dataAtPath } from '../lib/pageData.server'
import { type Frame, frameContent } from '../lib/settings'
import type { RouteInfo } from '../schema/RouteInfo'
import type { SiteContent } from '../schema/SiteContent'

/** A page an entry makes: its route's kind and parameters, and its title for the pane's choice. */
export type EntryPage = { kind: PageKind; params: Record<string, string | number>; title: string }

/** What the pane draws: the page shown, every page of the entry, their context and frame. */
export type PreviewPage = {
  page: EntryPage
  pages: EntryPage[]
  pageContext: Record<string, unknown>
  frame: Frame
}

function entryPage(route: RouteInfo): EntryPage {
  return { kind: route.kind, params: 'params' in route ? route.params : {}, title: route.title }
}

function samePage(a: EntryPage, b: Pick<EntryPage, 'kind' | 'params'>): boolean {
  const names = Object.keys(a.params)
  return a.kind === b.kind && names.length === Object.keys(b.params).length && names.every((n) => a.params[n] === b.params[n])
}

/**
 * Every page of the entry whose own page is `own`, in the routes' order: that page, and for a
 * service category the page of each of its sub-services (one file makes them all), as the
 * routes table of the content has them.
 */
function entryPages(own: RouteInfo): [EntryPage, ...EntryPage[]] {
  if (own.kind !== 'service-category') return [entryPage(own)]
  const { category } = own.params
  const subServices = loadContent().routes.filter((r) => r.kind === 'sub-service' && r.params.category === category)
  return [entryPage(own), ...subServices.map(entryPage)]
}

/**
 * What the components of the page of kind `kind` with `params` (the entry's own page, as sitegen
 * names it: cms/preview.rs), or of the entry's page `wanted` where it still makes one, read when
 * `content` is the site's content: its page context (`useData()`, `usePageContext()`), and the
 * frame (`siteSettings()`: the islands' labels, the contact page's addresses). The dev server's
 * own content is put back before this returns: it is synchronous, so no page render sees the
 * preview's.
 */
export function previewPageContext(
  content: SiteContent,
  kind: PageKind,
  params: Record<string, string | number>,
  wanted?: Pick<EntryPage, 'kind' | 'params'>,
): PreviewPage {
  const before = currentContent()
  setContent(content)
  try {
    const own = routeByPath(pathOf(kind, params as ParamsOf<typeof kind>))
    if (!own) throw new Error(`The content has no ${kind} page with ${JSON.stringify(params)}`)
    const pages = entryPages(own)
    // A page the entry no longer makes (a sub-service renamed or removed) gives way to its own.
    const page = (wanted && pages.find((p) => samePage(p, wanted))) ?? pages[0]
    const urlPathname = pathOf(page.kind, page.params as ParamsOf<typeof page.kind>)
    const data = dataAtPath(urlPathname)
    const { pageContext } = onBeforeRender({ data } as PageContextServer)
    return { page, pages, pageContext: { urlPathname, data, ...pageContext }, frame: frameContent() }
  } finally {
    if (before) setContent(before)
  }
}
