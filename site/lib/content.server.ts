// The content JSON for the pages' `+data` and `+onBeforePrerenderStart` hooks, which run only at
// build time (and in the dev server). Each `+data` hook returns only its own page's slice, so each
// prerendered HTML carries just the data that page renders.
//
// Routes come from the model: sitegen derives every page's path with its kind and parameters, and
// the site looks them up here instead of building paths itself.
import { render } from 'vike/abort'
import content from 'sitegen:content'
import type { RouteInfo } from '../schema/RouteInfo'
import type { RouteKind } from '../schema/RouteKind'
import type { SiteContent } from '../schema/SiteContent'
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
  return content
}

function paramsOf(route: RouteInfo): Record<string, string> {
  return 'params' in route ? route.params : {}
}

/** A key naming a route by its kind and parameters, whatever the parameters' order. */
function routeKey(kind: PageKind, params: Record<string, string>): string {
  return JSON.stringify([kind, Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1))])
}

// The routes indexed once, by kind, by kind and parameters and by kind and path: a site of
// thousands of pages looks up a route for every page and every link to one.
const byKind = new Map<PageKind, RouteInfo[]>()
const byParams = new Map<string, RouteInfo>()
const byPath = new Map<string, RouteInfo>()
for (const route of content.routes as RouteInfo[]) {
  const list = byKind.get(route.kind) ?? []
  list.push(route)
  byKind.set(route.kind, list)
  byParams.set(routeKey(route.kind, paramsOf(route)), route)
  byPath.set(JSON.stringify([route.kind, route.path]), route)
}

/** Every route of kind `kind`, in the model's order (a parametrised page's prerender list). */
export function routesOf<K extends PageKind>(kind: K): RouteOf<K>[] {
  return (byKind.get(kind) ?? []) as RouteOf<K>[]
}

/** The path of the page of kind `kind` with `params`, for a link to it. */
export function pathOf<K extends PageKind>(kind: K, params: ParamsOf<K>): string {
  const route = byParams.get(routeKey(kind, params as Record<string, string>))
  if (!route) throw new Error(`The content has no ${kind} page with ${JSON.stringify(params)}`)
  return route.path
}

/** The route of kind `kind` at `urlPathname`: the page being rendered. Unknown paths are 404. */
export function routeAt<K extends PageKind>(kind: K, urlPathname: string): RouteOf<K> {
  const route = byPath.get(JSON.stringify([kind, normalizePath(urlPathname)]))
  if (!route) throw render(404)
  return route as RouteOf<K>
}
