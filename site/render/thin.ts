// The render path of `sitegen build`'s workers for the pages after a page kind's first: the same
// page modules and the same `onRenderHtml` (vike-react's) as Vike's `renderPage`, without the
// per-request work around them that costs more than React's own rendering (URL parsing, route
// resolution, hook machinery, asset lookup).
//
// A page kind is a Vike page (`/pages/insights/@slug`). Its first page is rendered by Vike's
// `renderPage`; what that leaves in its page context (the page's resolved `config`, with its
// hooks and `Page`) and in its HTML (the tags Vike injects for the page's assets) is what this
// module renders the kind's further pages with. The first page is rendered again this way and
// must be Vike's HTML with those tags, and the kind's second page is rendered both ways and must
// come out byte for byte the same; otherwise Vike renders the kind's pages, and the build warns
// naming the page and where the two differ. The output is Vike's output, checked on every build.
//
// What it reproduces of Vike 0.4 (vike/dist/server/runtime/renderPageServer/html/):
// - routing: the pages' route functions (`pageContext.pages`), of which exactly one must answer
//   `true`; a path any other way (a route string, a route function's object, no match or two)
//   is rendered by Vike;
// - `renderTemplate` of the `escapeInject` document `onRenderHtml` returns, escaping plain strings
//   with Vike's `escapeHtml` (a stream or anything else is rendered by Vike);
// - `injectAtOpeningTag('head')` and `injectAtClosingTag('body')` with `injectBreakLines`, the
//   two places Vike puts a page's asset tags when there is no placeholder.

import { renderedOnce } from '../lib/once.server'

/** What Vike's `renderPage` leaves of a page, as far as this module reads it. */
interface VikePageContext {
  pageId: string | null
  is404: boolean | null
  config: Record<string, unknown>
  Page?: unknown
  exports?: Record<string, unknown>
  pages?: Record<string, { route?: unknown }>
}

type Hook = (pageContext: Record<string, unknown>) => unknown

/** A page kind once its first page went through Vike. */
interface Kind {
  pageId: string
  config: Record<string, unknown>
  Page: unknown
  exports: Record<string, unknown> | undefined
  /** Vike's asset tags, joined as Vike joins them before placing them. */
  headTags: string
  bodyTags: string
  /** Whether a second page was compared with Vike's rendering of it. */
  checked: boolean
}

/** The page ids and their route functions, from the first page Vike rendered. */
let routes: [string, Hook][] | undefined
const kinds = new Map<string, Kind>()
/** The kinds whose HTML is not their bare document with Vike's tags at the two places: Vike's. */
const refused = new Set<string>()

/**
 * The settings a kind's configuration may have to be rendered here: those this module calls
 * (`route`, `data`, `onBeforeRender`, `onRenderHtml`), those only vike-react's `onRenderHtml`
 * reads, and those of the browser's side, which a page rendered to HTML does not use. A kind with
 * any other (a `guard`, an `onCreatePageContext`, an `injectFilter`: hooks Vike runs around
 * `onRenderHtml`) is rendered by Vike.
 */
const KNOWN_CONFIGS = new Set([
  ...['route', 'data', 'onBeforeRender', 'onRenderHtml', 'Page', 'passToClient', 'Loading'],
  ...['Head', 'Layout', 'Wrapper', 'title', 'description', 'image', 'viewport', 'favicon', 'lang'],
  ...['htmlAttributes', 'bodyAttributes', 'headHtmlBegin', 'headHtmlEnd', 'bodyHtmlBegin', 'bodyHtmlEnd'],
  ...['reactStrictMode', 'react', 'onBeforeRenderHtml', 'onAfterRenderHtml'],
  ...['client', 'clientRouting', 'isClientRuntimeLoaded', 'onRenderClient', 'hydrationCanBeAborted'],
])

/** The page kind of `path` when its route is a function that alone answers `true` for it. */
function kindOf(path: string): string | undefined {
  if (!routes) return undefined
  const context = { urlOriginal: path, urlPathname: path }
  let found: string | undefined
  for (const [pageId, route] of routes) {
    const match = route(context)
    if (match === false) continue
    if (match !== true || found) return undefined
    found = pageId
  }
  return found
}

/**
 * Notes what Vike's rendering of `path` (its page context and HTML) teaches: the route functions
 * of every page, and for the page's kind, its configuration and asset tags. When this module
 * renders the page other than Vike did, the kind is left to Vike: the answer says so, to be
 * shown as a warning.
 */
export async function learn(path: string, pageContext: VikePageContext, html: string): Promise<string | undefined> {
  if (!routes && pageContext.pages) {
    // Only the error page may have no route: a page routed by its folder would be one this
    // module cannot route.
    const all = Object.entries(pageContext.pages)
    const routed = all.every(([pageId, { route }]) => typeof route === 'function' || pageId.endsWith('/_error'))
    routes = routed ? all.flatMap(([pageId, { route }]) => (typeof route === 'function' ? [[pageId, route as Hook]] : [])) : []
  }
  const pageId = pageContext.pageId
  if (!pageId || pageContext.is404 || kinds.has(pageId) || refused.has(pageId) || kindOf(path) !== pageId) return
  if (Object.keys(pageContext.config).some((name) => !KNOWN_CONFIGS.has(name))) {
    refused.add(pageId)
    return
  }
  const kind: Kind = {
    pageId,
    config: pageContext.config,
    Page: pageContext.Page,
    exports: pageContext.exports,
    headTags: '',
    bodyTags: '',
    checked: false,
  }
  // The HTML `onRenderHtml` writes for the page, without the assets: Vike's HTML is this with a
  // fragment after `<head>` and one before `</body>`.
  const bare = await documentOf(kind, path)
  const tags = bare === undefined ? undefined : injectedTags(bare, html)
  const ours = bare !== undefined && tags ? withTags(bare, tags) : undefined
  if (tags && ours === html) {
    kinds.set(pageId, { ...kind, ...tags })
    return
  }
  refused.add(pageId)
  return bare === undefined ? undefined : disagreement(path, pageId, ours ?? bare, html)
}

/** What a kind renders, without Vike or through it. */
export interface Rendered {
  html: string
  /** How many parts of the frame went into the page as rendered once for many (lib/once.server.tsx). */
  partsOnce: number
  /** Why the page's kind is left to Vike from now on, when this page showed it must be. */
  warning?: string
}

/**
 * The page at `path` rendered without Vike's `renderPage`, when its kind is known; undefined
 * when Vike must render it. `viaVike` renders the page through Vike, for the check of a kind's
 * second page: if the two differ, the page is Vike's and the kind is left to Vike.
 */
export async function renderThin(path: string, viaVike: () => Promise<string>): Promise<Rendered | undefined> {
  const pageId = kindOf(path)
  const kind = pageId === undefined ? undefined : kinds.get(pageId)
  if (!kind) return undefined
  // The frame's parts that are alike on many pages are rendered once for them (lib/once.server.tsx).
  const bare = await renderedOnce(() => documentOf(kind, path))
  const html = bare === undefined ? undefined : withTags(bare.html, kind)
  if (html === undefined || bare === undefined) return undefined
  if (!kind.checked) {
    const expected = await viaVike()
    if (html !== expected) {
      kinds.delete(kind.pageId)
      refused.add(kind.pageId)
      return { html: expected, partsOnce: 0, warning: disagreement(path, kind.pageId, html, expected) }
    }
    kind.checked = true
  }
  return { html, partsOnce: bare.partsOnce }
}

function disagreement(path: string, pageId: string, thin: string, vike: string): string {
  let at = 0
  while (at < thin.length && at < vike.length && thin[at] === vike[at]) at++
  const around = (html: string) => JSON.stringify(html.slice(Math.max(0, at - 40), at + 40))
  return (
    `the pages of ${pageId} are rendered through Vike's renderPage: sitegen's own render path ` +
    `differs on ${path} from character ${at} (${around(vike)} in Vike's, ${around(thin)} in its own)`
  )
}

/** The page context Vike's hooks and the pages read, for a page of `kind` at `path`. */
async function documentOf(kind: Kind, path: string): Promise<string | undefined> {
  const pageContext: Record<string, unknown> = {
    isPageContext: true,
    isClientSide: false,
    urlOriginal: path,
    urlPathname: path,
    routeParams: {},
    is404: null,
    pageId: kind.pageId,
    config: kind.config,
    exports: kind.exports,
    Page: kind.Page,
  }
  const { data, onBeforeRender, onRenderHtml } = kind.config as Record<string, Hook | undefined>
  if (typeof onRenderHtml !== 'function') return undefined
  if (typeof data === 'function') pageContext.data = await data(pageContext)
  if (typeof onBeforeRender === 'function') {
    const added = (await onBeforeRender(pageContext)) as { pageContext?: object } | undefined
    if (added?.pageContext) Object.assign(pageContext, added.pageContext)
  }
  return templateString(await onRenderHtml(pageContext))
}

type Escaped = { _escaped: string }
type Template = { _template: { templateStrings: readonly string[]; templateVariables: unknown[] } }

function isEscaped(value: unknown): value is Escaped {
  return typeof value === 'object' && value !== null && typeof (value as Escaped)._escaped === 'string'
}

function isTemplate(value: unknown): value is Template {
  return typeof value === 'object' && value !== null && '_template' in value
}

/** Vike's `renderTemplate` of a document without a stream; undefined for anything else. */
function templateString(document: unknown): string | undefined {
  if (isEscaped(document)) return document._escaped
  if (!isTemplate(document)) return undefined
  const { templateStrings, templateVariables } = document._template
  let html = templateStrings[0] ?? ''
  for (let i = 0; i < templateVariables.length; i++) {
    const value = templateVariables[i]
    let part: string | undefined
    if (isEscaped(value)) part = value._escaped
    else if (isTemplate(value)) part = templateString(value)
    else if (typeof value === 'string') part = escapeHtml(value)
    else if (value === undefined || value === null) part = ''
    if (part === undefined) return undefined
    html += part + (templateStrings[i + 1] ?? '')
  }
  return html
}

/** Vike's `escapeHtml`. */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
}

const HEAD_OPENING = /<head(>| [^>]*>)/i
const BODY_CLOSING = /<\/body>/i

/** The two places Vike injects tags into `html`: after the first `<head>`, before the last `</body>`. */
function places(html: string): { head: number; body: number } | undefined {
  const head = HEAD_OPENING.exec(html)
  if (!head) return undefined
  // React writes `</body>` in lower case: looked for from the end first, not by a scan of the page.
  let body = html.lastIndexOf('</body>')
  if (body < 0) {
    const found = BODY_CLOSING.exec(html)
    if (!found) return undefined
    body = html.lastIndexOf(found[0])
  }
  return { head: head.index + head[0].length, body }
}

/** How much of the page beside each place finds the place again in Vike's HTML. */
const BESIDE = 64

/**
 * The fragments Vike placed into `bare` to make `html`, as Vike joined them before breaking
 * their lines: what `html` has after `<head>` before the page goes on as `bare` does there,
 * and before `</body>` after the page's last characters before it. Undefined when `html` does
 * not begin and end as `bare` does around those places.
 */
function injectedTags(bare: string, html: string): { headTags: string; bodyTags: string } | undefined {
  const at = places(bare)
  if (!at || at.body < at.head) return undefined
  const [start, end] = [bare.slice(0, at.head), bare.slice(at.body)]
  if (!html.startsWith(start) || !html.endsWith(end)) return undefined
  const headNext = html.indexOf(bare.slice(at.head, at.head + BESIDE), at.head)
  const bodyBefore = bare.slice(Math.max(at.head, at.body - BESIDE), at.body)
  const bodyEnd = html.length - end.length
  const bodyAt = html.lastIndexOf(bodyBefore, bodyEnd - bodyBefore.length)
  if (headNext < 0 || bodyAt < headNext) return undefined
  const unbroken = (fragment: string) => fragment.replace(/\n[ \t]*(?=<)/g, '').trim()
  return {
    headTags: unbroken(html.slice(at.head, headNext)),
    bodyTags: unbroken(html.slice(bodyAt + bodyBefore.length, bodyEnd)),
  }
}

/**
 * `bare` with the tags where Vike puts them: the head's after `<head>`, then the body's before
 * `</body>`, each broken into lines by what is around it (which the other does not change).
 */
function withTags(bare: string, tags: { headTags: string; bodyTags: string }): string | undefined {
  const at = places(bare)
  if (!at || at.body < at.head) return undefined
  const around = (place: number, fragment: string) =>
    fragment ? breakLines(fragment, bare.slice(0, place), bare.slice(place)) : ''
  return (
    bare.slice(0, at.head) +
    around(at.head, tags.headTags) +
    bare.slice(at.head, at.body) +
    around(at.body, tags.bodyTags) +
    bare.slice(at.body)
  )
}

/** Vike's `injectBreakLines`: each tag on a line of its own, indented one step past its parent. */
function breakLines(fragment: string, before: string, after: string): string {
  const lineBefore = before.slice(before.lastIndexOf('\n') + 1)
  let padding = /\s*$/.exec(lineBefore)?.[0] ?? ''
  const blankLine = padding !== ''
  if (!padding) padding = /^\s*/.exec(lineBefore)?.[0] ?? ''
  if (!padding) return fragment
  const indent = `\n${padding}  `
  const tag = /<(script|style|textarea|title)\b[^>]*>[\s\S]*?<\/\1>|<[^/][^>]*>/gi
  let broken = fragment.replace(tag, (match) => `${indent}${match}`)
  if (blankLine) broken = `  ${broken.slice(indent.length)}`
  const lineAfter = after.slice(0, after.indexOf('\n') < 0 ? after.length : after.indexOf('\n'))
  if (lineAfter.trim().length > 0) broken += `\n${padding}`
  return broken
}
