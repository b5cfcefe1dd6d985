// The parts of the frame (the header, the footer) rendered once for the many pages that show
// them the same, on `sitegen build`'s own render path (render/thin.ts). Everywhere else (Vike's
// renderPage, the dev server) `Once` is its part, rendered as it is.
//
// A part is a component whose HTML is a function of its props and, through a `Here` among them
// (lib/paths.ts), of the answers to the questions it asks about the page's path; and of its place
// in the tree, which `useId` reads: a `Once` stands at the same place on every page (the layout's).
// So the HTML a part rendered on one page is its HTML on any page with equal props (compared as
// JSON, an object serialised once) where the same questions get the same answers.
//
// How a part's HTML is learned, byte for byte as React writes it within the page: the page is
// rendered with the part (`A`), and again with a placeholder element in its place (`B`); the two
// are equal before and after it, and what `A` has between is the part. A part is learned the
// second time its props come (props seen once, such as a translated page's own language links,
// cost no second render), and checked the first time it stands in for the part on another page:
// that page is rendered with the part too, and what the part rendered must be what was learned;
// otherwise `Once` renders that part on every page from then on.
import { randomBytes } from 'node:crypto'
import { type ComponentType, createElement } from 'react'
import { Here } from './paths'

/** One rendering of a part's HTML for some props: the questions it asked, and its HTML. */
interface Learned {
  asked: ReadonlyMap<string, boolean>
  html: string
  /** Whether it stood in for the part on a page that was rendered with the part too, and matched. */
  checked: boolean
}

/** What is known of the props `key` of a part. */
interface Known {
  /** How many pages rendered the part for them. */
  seen: number
  learned: Learned[]
}

/** A `Once` the page being rendered met, in the order the page met them. */
interface Slot {
  key: string
  /** What stands in its place in the page: the part's HTML, or the placeholder. */
  as: { learned: Learned } | { asked: Map<string, boolean> } | 'placeholder'
}

/** A rendering of the page in progress: its slots, and the one to render differently. */
interface Pass {
  slots: Slot[]
  /** The page's HTML as React wrote it, placeholders and all (see {@link withPartsIn}). */
  pageHtml?: string
  /** The slot rendered as the placeholder where it would be the part, or the part where it would be learned HTML. */
  turned?: number
}

/** The most props of a part remembered: a site's frames vary by language and page kind, not by page. */
const MOST_KNOWN = 4096
/** The most renderings learned for one part's props (one for each set of answers). */
const MOST_LEARNED = 16

const known = new Map<string, Known>()
const refused = new Set<string>()
const partIds = new WeakMap<object, number>()
let parts = 0
const json = new WeakMap<object, string>()
const texts = new Map<string, string>()
/** The page being rendered: a worker renders one page at a time (render/worker.mjs awaits each). */
let pass: Pass | undefined
/** Set when a page was rendered without `withPartsIn` being called: then every part is rendered. */
let off = false

const PLACEHOLDER = 'sitegen-once'
/** Makes a placeholder one no page's own HTML (an article's body, say) can hold. */
const NONCE = randomBytes(8).toString('hex')

function placeholder(slot: number): string {
  return `<${PLACEHOLDER} data-slot="${NONCE}-${slot}"></${PLACEHOLDER}>`
}

/** `part` rendered with `props`: once for the pages that render it the same (see the module's note). */
export function Once<P extends object>({ part: Part, props }: { part: ComponentType<P>; props: P }) {
  const key = pass && keyOf(Part as ComponentType<never>, props)
  if (!pass || off || key === undefined || refused.has(key)) return <Part {...props} />
  const index = pass.slots.length
  const here = Object.values(props).find((value): value is Here => value instanceof Here)
  const learned = known.get(key)?.learned.find((l) => !here || here.answers(l.asked))
  const turned = pass.turned === index
  if (learned && !turned) {
    pass.slots.push({ key, as: { learned } })
    return <PlaceholderOf slot={index} />
  }
  if (!learned && turned) {
    pass.slots.push({ key, as: 'placeholder' })
    return <PlaceholderOf slot={index} />
  }
  const asked = new Map<string, boolean>()
  pass.slots.push({ key, as: { asked } })
  const noting = here ? Object.fromEntries(Object.entries(props).map(([name, value]) => [name, value === here ? here.noting(asked) : value])) : props
  return <Part {...(noting as P)} />
}

function PlaceholderOf({ slot }: { slot: number }) {
  // A custom element: React writes it as it is, and never merges it with the text beside it.
  return createElement(PLACEHOLDER, { 'data-slot': `${NONCE}-${slot}` })
}

/** The key of `part` with `props`, or undefined when a prop cannot be compared as JSON (a function, an element). */
function keyOf(part: ComponentType<never>, props: object): string | undefined {
  let id = partIds.get(part)
  if (id === undefined) {
    id = ++parts
    partIds.set(part, id)
  }
  let key = `${id} ${part.displayName ?? part.name}`
  for (const [name, value] of Object.entries(props)) {
    if (value instanceof Here) continue
    if (typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value)) return undefined
    key += `\n${name}=${jsonOf(value)}`
  }
  return key
}

/**
 * `value` as JSON, an object as the number of its JSON among those seen: serialised once for the
 * same object (the settings), and keys stay short whatever the props hold.
 */
function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined'
  let id = json.get(value)
  if (id === undefined) {
    const text = JSON.stringify(value)
    id = texts.get(text)
    if (id === undefined) {
      if (texts.size >= MOST_KNOWN) return text
      id = `#${texts.size}`
      texts.set(text, id)
    }
    json.set(value, id)
  }
  return id
}

/**
 * The page's HTML as React wrote it (vike-react's `pageHtmlString`), with the parts learned before
 * in their places: called by pages/+onAfterRenderHtml.ts, before anything is made of it (the
 * head's preloads of the enhancements the page names). Outside `renderedOnce`, `html` as it is.
 */
export function withPartsIn(html: string): string {
  if (!pass) return html
  pass.pageHtml = html
  return filled(html, pass.slots)
}

/** One pass of the page (see the module's note). */
interface Rendering {
  html: string
  pageHtml: string
  slots: Slot[]
}

/** A page's document, and how many parts of the frame went into it as learned. */
export interface PageOnce {
  html: string
  partsOnce: number
}

/**
 * The page `render` renders (its whole document), with the parts of the frame it rendered before
 * put in as learned (see the module's note); undefined when `render` gives none.
 */
export async function renderedOnce(render: () => Promise<string | undefined>): Promise<PageOnce | undefined> {
  const first = await passOf(render)
  if (!first) return undefined
  if (first === 'unseen') {
    // The page's HTML did not come through withPartsIn: no part can be put in it.
    off = true
    const html = await render()
    return html === undefined ? undefined : { html, partsOnce: 0 }
  }
  // What this page teaches takes effect after it: every pass of it meets the same slots.
  const learnedNow: [Known, Learned][] = []
  const refusedNow: string[] = []
  for (const [index, slot] of first.slots.entries()) {
    if (slot.as === 'placeholder') continue
    if ('learned' in slot.as) {
      if (!slot.as.learned.checked && !(await matches(render, first, index, slot.as.learned))) refusedNow.push(slot.key)
      continue
    }
    let entry = known.get(slot.key)
    if (!entry) {
      if (known.size >= MOST_KNOWN) continue
      entry = { seen: 0, learned: [] }
      known.set(slot.key, entry)
    }
    entry.seen += 1
    if (entry.seen < 2 || entry.learned.length >= MOST_LEARNED) continue
    const second = await passOf(render, index)
    const html = typeof second === 'object' ? between(first.pageHtml, second.pageHtml, index) : undefined
    if (html === undefined || typeof second !== 'object' || !sameSlots(first.slots, second.slots, index)) refusedNow.push(slot.key)
    else learnedNow.push([entry, { asked: slot.as.asked, html, checked: false }])
  }
  for (const [entry, learned] of learnedNow) entry.learned.push(learned)
  if (refusedNow.length === 0) return { html: first.html, partsOnce: partsIn(first.slots) }
  for (const key of refusedNow) {
    refused.add(key)
    known.delete(key)
    console.error(`warning: the frame's part ${key.split('\n')[0]} could not be rendered once for many pages (lib/once.server.tsx): it is rendered on every page`)
  }
  // The page again, with those parts rendered.
  const again = await passOf(render)
  return typeof again === 'object' ? { html: again.html, partsOnce: partsIn(again.slots) } : undefined
}

function partsIn(slots: Slot[]): number {
  return slots.filter((slot) => slot.as !== 'placeholder' && 'learned' in slot.as).length
}

/**
 * Whether the part renders what was learned where `learned` stood in slot `index` of `first`:
 * the page rendered again with the part there. Once it has, it is trusted.
 */
async function matches(render: () => Promise<string | undefined>, first: Rendering, index: number, learned: Learned): Promise<boolean> {
  const real = await passOf(render, index)
  learned.checked = typeof real === 'object' && between(real.pageHtml, first.pageHtml, index) === learned.html && sameSlots(first.slots, real.slots, index)
  return learned.checked
}

/** Whether two passes met the same slots (the same parts and props), in the same order. */
function sameSlots(a: Slot[], b: Slot[], turned: number): boolean {
  return a.length === b.length && a.every((slot, i) => slot.key === b[i]?.key && (i === turned || kindOf(slot) === kindOf(b[i]!)))
}

function kindOf(slot: Slot): string {
  return slot.as === 'placeholder' ? 'placeholder' : 'learned' in slot.as ? 'learned' : 'part'
}

/**
 * One rendering of the page, slot `turned` rendered the other way; undefined when `render` gives
 * none, 'unseen' when the page's HTML did not come through {@link withPartsIn}.
 */
async function passOf(render: () => Promise<string | undefined>, turned?: number): Promise<Rendering | 'unseen' | undefined> {
  const current: Pass = { slots: [], turned }
  pass = current
  try {
    const html = await render()
    if (html === undefined) return undefined
    return current.pageHtml === undefined ? 'unseen' : { html, pageHtml: current.pageHtml, slots: current.slots }
  } finally {
    pass = undefined
  }
}

/** What `withPart` has where `withPlaceholder` has slot `index`'s placeholder, when the two are the same around it. */
function between(withPart: string, withPlaceholder: string, index: number): string | undefined {
  const mark = placeholder(index)
  const at = withPlaceholder.indexOf(mark)
  if (at < 0 || withPlaceholder.indexOf(mark, at + mark.length) >= 0) return undefined
  const before = withPlaceholder.slice(0, at)
  const after = withPlaceholder.slice(at + mark.length)
  if (withPart.length < before.length + after.length || !withPart.startsWith(before) || !withPart.endsWith(after)) return undefined
  return withPart.slice(before.length, withPart.length - after.length)
}

/** `html` with each learned part in the place of its slot's placeholder, in one pass. */
function filled(html: string, slots: Slot[]): string {
  const pieces: string[] = []
  let from = 0
  for (const [index, slot] of slots.entries()) {
    if (slot.as === 'placeholder' || !('learned' in slot.as)) continue
    const mark = placeholder(index)
    const at = html.indexOf(mark, from)
    if (at < 0) throw new Error(`the placeholder of the frame's slot ${index} is missing from the page`)
    pieces.push(html.slice(from, at), slot.as.learned.html)
    from = at + mark.length
  }
  if (pieces.length === 0) return html
  pieces.push(html.slice(from))
  return pieces.join('')
}
