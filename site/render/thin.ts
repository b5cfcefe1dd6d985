// The render path of `sitegen build`'s workers for the pages after a page kind's first: the same
// page modules and the same `onRenderHtml` (vike-react's) as Vike's `renderPage`, without the
// per-request work around them that costs more than React's own rendering (URL parsing, route
// resolution, hook machinery, asset lookup).
//
// A page kind is a Vike page (`/pages/insights/@slug`). Its first page is rendered by Vike's
// `renderPage`; what that leaves in its page context (the page's resolved `config`, with its
// hooks and `Page`) and in its HTML (the tags Vike injects for the page's assets) is what this
// module renders the kind's further pages with. Each kind's second page is rendered both ways and
// must come out byte for byte the same, or the build stops naming the page: the output of this
// path is Vike's output, checked on every build.
//
// What it reproduces of Vike 0.4 (vike/dist/server/runtime/renderPageServer/html/):
// - routing: the pages' route functions (`pageContext.pages`), of which exactly one must answer
//   `true`; a path any other way (a route string, a route function's object, no match or two)
//   is rendered by Vike;
// - `renderTemplate` of the `escapeInject` document `onRenderHtml` returns, escaping plain strings
//   with Vike's `escapeHtml` (a stream or anything else is rendered by Vike);
// - `injectAtOpeningTag('head')` and `injectAtClosingTag('body')` with `injectBreakLines`, the
//   two places Vike puts a page's asset tags when there is no placeholder.

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
 * of every page, and for the page's kind, its configuration and asset tags.
 */
export async function learn(path: string, pageContext: VikePageContext, html: string): Promise<void> {
  if (!routes && pageContext.pages) {
    // Only the error page may have no route: a page routed by its folder would be one this
    // module cannot route.
    const all = Object.entries(pageContext.pages)
    const routed = all.every(([pageId, { route }]) => typeof route === 'function' || pageId.endsWith('/_error'))
    routes = routed ? all.flatMap(([pageId, { route }]) => (typeof route === 'function' ? [[pageId, route as Hook]] : [])) : []
  }
  const pageId = pageContext.pageId
  if (!pageId || pageContext.is404 || kinds.has(pageId) || kindOf(path) !== pageId) return
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
  const tags = injectedTags(await documentOf(kind, path), html)
  if (tags) kinds.set(pageId, { ...kind, ...tags })
}

/**
 * The page at `path` rendered without Vike's `renderPage`, when its kind is known; undefined
 * when Vike must render it. `viaVike` renders a page through Vike, for the check of a kind's
 * second page.
 */
export async function renderThin(path: string, viaVike: () => Promise<string>): Promise<string | undefined> {
  const pageId = kindOf(path)
  const kind = pageId === undefined ? undefined : kinds.get(pageId)
  if (!kind) return undefined
  const bare = await documentOf(kind, path)
  if (bare === undefined) return undefined
  const html = withTags(bare, kind)
  if (!kind.checked) {
    const expected = await viaVike()
    if (html !== expected) {
      throw new Error(
        `sitegen's render path and Vike's renderPage disagree on ${path} (page ${kind.pageId}) from ` +
          `character ${firstDifference(html, expected)}. SITEGEN_RENDER=vike renders every page through Vike.`,
      )
    }
    kind.checked = true
  }
  return html
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
  const body = BODY_CLOSING.exec(html)
  if (!head || !body) return undefined
  return { head: head.index + head[0].length, body: html.lastIndexOf(body[0]) }
}

/**
 * The fragments Vike placed into `bare` to make `html`, as Vike joined them before breaking
 * their lines; undefined when `html` is not `bare` with a fragment at each place.
 */
function injectedTags(bare: string | undefined, html: string): { headTags: string; bodyTags: string } | undefined {
  const at = bare === undefined ? undefined : places(bare)
  if (bare === undefined || !at || at.body < at.head) return undefined
  const [before, middle, after] = [bare.slice(0, at.head), bare.slice(at.head, at.body), bare.slice(at.body)]
  if (!html.startsWith(before) || !html.endsWith(after)) return undefined
  const between = html.slice(before.length, html.length - after.length)
  const start = between.indexOf(middle)
  if (start < 0) return undefined
  const unbroken = (fragment: string) => fragment.replace(/\n[ \t]*(?=<)/g, '').trim()
  const tags = { headTags: unbroken(between.slice(0, start)), bodyTags: unbroken(between.slice(start + middle.length)) }
  return withTags(bare, tags) === html ? tags : undefined
}

/** `bare` with the tags where Vike puts them, in Vike's order: the head's, then the body's. */
function withTags(bare: string, tags: { headTags: string; bodyTags: string }): string {
  let html = bare
  const head = places(html)?.head
  if (tags.headTags && head !== undefined) {
    const [before, after] = [html.slice(0, head), html.slice(head)]
    html = before + breakLines(tags.headTags, before, after) + after
  }
  const body = places(html)?.body
  if (tags.bodyTags && body !== undefined) {
    const [before, after] = [html.slice(0, body), html.slice(body)]
    html = before + breakLines(tags.bodyTags, before, after) + after
  }
  return html
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

function firstDifference(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}
