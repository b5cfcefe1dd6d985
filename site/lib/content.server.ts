// The content for the pages' `+data` hooks, which run only at build time (and in the dev server).
// It is not part of the bundle: the renderer hands it over (lib/contentGlobal.ts). Each `+data`
// hook returns only its own page's slice, so each rendered HTML carries just the data that page
// renders.
//
// Routes come from the model: sitegen derives every page's path with its kind and parameters, and
// the site looks them up here instead of building paths itself.
import { render } from 'vike/abort'
import type { RouteInfo } from '../schema/RouteInfo'
import type { RouteKind } from '../schema/RouteKind'
import type { SiteContent } from '../schema/SiteContent'
import { currentContent } from './contentGlobal'
import { normalizePath } from './paths'

export type { SiteContent }

/** The name of a kind of page: `home`, `about`, ..., `service-category`, `sub-service`. */
export type PageKind = RouteKind['kind']

/** A route of kind `K`, with that kind's parameters. */
export type RouteOf<K extends PageKind> = Extract<RouteInfo, { kind: K }>

/** The parameters of a page of kind `K` (`{ category, service }` for a sub-service). */
export type ParamsOf<K extends PageKind> = RouteOf<K> extends { params: infer P } ? P : Record<string, never>

/** The whole site content. */
export function loadContent(): SiteContent {
  const content = currentContent()
  if (!content) throw new Error('No content to render: the renderer sets it first (lib/contentGlobal.ts)')
  return content
}

function paramsOf(route: RouteInfo): Record<string, string | number> {
  return 'params' in route ? route.params : {}
}

/**
 * A key naming a route by its kind and parameters, whatever the parameters' order. Every link
 * to a page computes one (a few per card), so it is built by hand rather than as JSON of sorted
 * entries; NUL, which no kind, name or slug holds, separates the parts, and `#` marks a number.
 */
function routeKey(kind: PageKind, params: Record<string, string | number>): string {
  const names = Object.keys(params)
  if (names.length > 1) names.sort()
  let key: string = kind
  for (const name of names) {
    const value = params[name]
    key += typeof value === 'number' ? `\0${name}\0#${value}` : `\0${name}\0${value}`
  }
  return key
}

// The routes indexed once per content, by kind and parameters and by path: a site of thousands
// of pages looks up a route for every page and every link to one. The index is kept by the
// routes and they are read on every lookup, for sitegen's render worker notes what each page
// reads of the content (render/reads.ts).
interface RouteIndex {
  routes: SiteContent['routes']
  byParams: Map<string, RouteInfo>
  byPath: Map<string, RouteInfo>
}

let indexed: RouteIndex | undefined

function routeIndex(): RouteIndex {
  const { routes } = loadContent()
  if (indexed?.routes === routes) return indexed
  const index: RouteIndex = { routes, byParams: new Map(), byPath: new Map() }
  for (const route of routes as RouteInfo[]) {
    index.byParams.set(routeKey(route.kind, paramsOf(route)), route)
    index.byPath.set(route.path, route)
  }
  indexed = index
  return index
}

/** The route published at `path`, whatever its kind; undefined for a path the model does not publish. */
export function routeByPath(path: string): RouteInfo | undefined {
  return routeIndex().byPath.get(normalizePath(path))
}

/** The path of the page of kind `kind` with `params`, for a link to it. */
export function pathOf<K extends PageKind>(kind: K, params: ParamsOf<K>): string {
  const route = routeIndex().byParams.get(routeKey(kind, params as Record<string, string | number>))
  if (!route) throw new Error(`The content has no ${kind} page with ${JSON.stringify(params)}`)
  return route.path
}

/** The route of kind `kind` at `urlPathname`: the page being rendered. Unknown paths are 404. */
export function routeAt<K extends PageKind>(kind: K, urlPathname: string): RouteOf<K> {
  const route = routeByPath(urlPathname)
  if (route?.kind !== kind) throw render(404)
  return route as RouteOf<K>
}


/**
 * A page's Vike route (its `+route.ts`): the paths the model publishes pages of kind `kind` at,
 * in every language (`/about`, `/et/about`, an article's translated slug), looked up in the
 * routes table rather than matched by the folder's name.
 */
export function routeOfKind(kind: PageKind): (pageContext: { urlPathname: string }) => boolean {
  return ({ urlPathname }) => routeByPath(urlPathname)?.kind === kind
}
