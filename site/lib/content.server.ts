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

function sameParams(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key])
}

/** Every route of kind `kind`, in the model's order (a parametrised page's prerender list). */
export function routesOf<K extends PageKind>(kind: K): RouteOf<K>[] {
  return content.routes.filter((route: RouteInfo): route is RouteOf<K> => route.kind === kind)
}

/** The path of the page of kind `kind` with `params`, for a link to it. */
export function pathOf<K extends PageKind>(kind: K, params: ParamsOf<K>): string {
  const route = routesOf(kind).find((r) => sameParams(paramsOf(r), params as Record<string, string>))
  if (!route) throw new Error(`The content has no ${kind} page with ${JSON.stringify(params)}`)
  return route.path
}

/** The route of kind `kind` at `urlPathname`: the page being rendered. Unknown paths are 404. */
export function routeAt<K extends PageKind>(kind: K, urlPathname: string): RouteOf<K> {
  const path = normalizePath(urlPathname)
  const route = routesOf(kind).find((r) => r.path === path)
  if (!route) throw render(404)
  return route
}
