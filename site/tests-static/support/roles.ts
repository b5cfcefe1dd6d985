import type { Cheerio, CheerioAPI } from 'cheerio'
import type { AnyNode, Element } from 'domhandler'

// The few ARIA queries the static tests read pages by, over cheerio: the same questions the
// Chromium tests ask with getByRole, answered from the markup alone. They follow the roles and
// accessible names of this site's markup (HTML elements with their implicit roles, aria-label,
// aria-labelledby, alt), not the whole of WAI-ARIA: a query the markup does not support throws
// rather than answering wrongly.

type Scope = Cheerio<AnyNode>

/** Text as a reader gets it: runs of white space as one space, trimmed. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** The text of `el` without what is hidden from assistive technology (aria-hidden, hidden). */
function visibleText($: CheerioAPI, el: AnyNode): string {
  if (el.type === 'text') return el.data
  if (el.type !== 'tag' && el.type !== 'script' && el.type !== 'style') return ''
  const tag = el as Element
  if (tag.type !== 'tag' || tag.attribs['aria-hidden'] === 'true' || 'hidden' in tag.attribs) return ''
  if (tag.name === 'img') return tag.attribs.alt ?? ''
  if (tag.name === 'br') return ' '
  return tag.children.map((child) => visibleText($, child)).join('')
}

/** The elements a `<label>` names. */
const LABELLABLE = new Set(['input', 'select', 'textarea'])

/**
 * The accessible name of `el`: aria-labelledby, then aria-label, then (a form control) its
 * labels or (a button input) its value, else its content (or alt).
 */
export function nameOf($: CheerioAPI, el: Element): string {
  const labelledBy = el.attribs['aria-labelledby']
  if (labelledBy) {
    return squash(
      labelledBy
        .split(/\s+/)
        .map((id) => {
          const label = $(`[id="${id}"]`).get(0)
          return label ? visibleText($, label) : ''
        })
        .join(' '),
    )
  }
  if (el.attribs['aria-label']) return squash(el.attribs['aria-label'])
  if (el.name === 'input' && ['button', 'submit', 'reset'].includes(el.attribs.type ?? '')) {
    // Named by its value; without one the browser's default label, which this does not know.
    const value = el.attribs.value
    if (value === undefined) throw new Error(`an input[type=${el.attribs.type}] without a value has a name only a browser knows`)
    return squash(value)
  }
  if (LABELLABLE.has(el.name)) {
    // A form control is named by its <label for> (or the label around it); no label, no name.
    const id = el.attribs.id
    const labels = [...(id ? $(`label[for="${id}"]`).toArray() : []), ...$(el).closest('label').toArray()]
    return squash(labels.map((label) => visibleText($, label)).join(' '))
  }
  if (el.name === 'img') return squash(el.attribs.alt ?? '')
  return squash(visibleText($, el))
}

/** The text a visitor reads in `scope`. */
export function textOf($: CheerioAPI, scope: Scope): string {
  return squash(scope.toArray().map((el) => visibleText($, el)).join(' '))
}

const ROLE_SELECTORS = {
  region: 'section[aria-labelledby], section[aria-label], [role="region"]',
  link: 'a[href]',
  heading: 'h1, h2, h3, h4, h5, h6',
  article: 'article',
  list: 'ul, ol, [role="list"]',
  listitem: 'li',
  main: 'main',
  navigation: 'nav',
  img: 'img[alt]:not([alt=""]), svg[role="img"], [role="img"]',
  paragraph: 'p',
  form: 'form[aria-label], form[aria-labelledby]',
  contentinfo: 'footer, [role="contentinfo"]',
  banner: 'header, [role="banner"]',
  term: 'dt',
  figure: 'figure',
  blockquote: 'blockquote',
  search: '[role="search"], search',
  searchbox: 'input[type="search"]',
  textbox: 'input:not([type]), input[type="text"], input[type="email"], input[type="tel"], input[type="url"], textarea',
  button: 'button, [role="button"], input[type="button"], input[type="submit"], input[type="reset"]',
  definition: 'dd',
} as const

export type Role = keyof typeof ROLE_SELECTORS

/** Sectioning elements inside which a <header> or <footer> is no longer the page's banner or contentinfo. */
const SECTIONING = 'article, aside, main, nav, section'

/**
 * Options of [`byRole`]: the accessible name (exact after squashing, or a pattern), a level, and
 * (as getByRole's `includeHidden`) whether elements under `hidden` or aria-hidden count too, for
 * what a script shows (a closed menu's links are in the markup, hidden).
 */
export interface RoleQuery {
  name?: string | RegExp | undefined
  level?: number
  includeHidden?: boolean
}

/** The elements of `role` inside `scope` (or the page), in document order. */
export function byRole($: CheerioAPI, role: Role, query: RoleQuery = {}, scope?: Scope): Element[] {
  const found = (scope ? scope.find(ROLE_SELECTORS[role]) : $(ROLE_SELECTORS[role])).toArray() as Element[]
  return found.filter((el) => {
    if (!query.includeHidden && $(el).closest('[aria-hidden="true"], [hidden]').length > 0) return false
    if ((role === 'contentinfo' || role === 'banner') && !el.attribs.role && $(el).parents(SECTIONING).length > 0) return false
    if (query.level !== undefined && el.name !== `h${query.level}`) return false
    if (query.name === undefined) return true
    const name = nameOf($, el)
    return typeof query.name === 'string' ? name === query.name : query.name.test(name)
  })
}

/** The one element of `role` named `name` in `scope`; throws when there is none or several. */
export function only($: CheerioAPI, role: Role, query: RoleQuery, scope?: Scope): Cheerio<Element> {
  const found = byRole($, role, query, scope)
  if (found.length !== 1) {
    throw new Error(`expected one ${role} named ${String(query.name)}, found ${found.length}`)
  }
  return $(found[0] as Element)
}

/** The texts of the section headings (h2 in main), in document order. */
export function sectionHeadings($: CheerioAPI): string[] {
  return byRole($, 'heading', { level: 2 }, $('main')).map((h) => nameOf($, h))
}

/**
 * Whether an element in `scope` reads exactly `text` (after squashing), as getByText with
 * `exact: true` finds it.
 */
export function hasExactText($: CheerioAPI, scope: Scope, text: string): boolean {
  return scope
    .find('*')
    .toArray()
    .some((el) => textOf($, $(el)) === squash(text))
}
