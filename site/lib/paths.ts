/** `/about/` and `/about` are the same page: compare paths without the trailing slash. */
export function normalizePath(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '/'
  const trimmed = withoutQuery.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed
}

/** Whether the normalised path `current` is `base` or below it. */
function within(base: string, current: string): boolean {
  return base === '/' ? current === '/' : current === base || current.startsWith(`${base}/`)
}

/**
 * The page being rendered, as the navigation asks about it: whether a link is this page, or the
 * page lies within it. The frame knows the page's path only through these questions, so what it
 * renders for one page is what it renders for any other where every question it asked gets the
 * same answer: lib/once.server.tsx renders it once for all of them. `noting` notes the questions asked.
 */
export class Here {
  /** The page's path, normalised. */
  readonly #current: string
  readonly #asked: Map<string, boolean> | undefined

  constructor(pathname: string, asked?: Map<string, boolean>) {
    this.#current = normalizePath(pathname)
    this.#asked = asked
  }

  /** Whether `href` is this page (exact match, trailing slash ignored). */
  isCurrentPage(href: string): boolean {
    return this.#answer(`=${href}`)
  }

  /** Whether this page is `href` or below it, e.g. `/services/cloud-services` is within `/services`. */
  isWithin(href: string): boolean {
    return this.#answer(`<${href}`)
  }

  /** This page, noting into `asked` every question asked of it and the answer. */
  noting(asked: Map<string, boolean>): Here {
    return new Here(this.#current, asked)
  }

  /** Whether each question of `asked` gets the answer noted there. */
  answers(asked: ReadonlyMap<string, boolean>): boolean {
    for (const [question, answer] of asked) if (this.#ask(question) !== answer) return false
    return true
  }

  #answer(question: string): boolean {
    const answer = this.#ask(question)
    this.#asked?.set(question, answer)
    return answer
  }

  #ask(question: string): boolean {
    const base = normalizedHref(question.slice(1))
    return question.startsWith('=') ? base === this.#current : within(base, this.#current)
  }
}

/** The navigation's links, normalised: the same few on every page. */
const normalized = new Map<string, string>()

function normalizedHref(href: string): string {
  let path = normalized.get(href)
  if (path === undefined) {
    path = normalizePath(href)
    if (normalized.size < 10_000) normalized.set(href, path)
  }
  return path
}

/** Canonical URL of a page: the base URL plus the path with a trailing slash (directory style). */
export function canonicalUrl(baseUrl: string, pathname: string): string {
  const path = normalizePath(pathname)
  return `${baseUrl.replace(/\/+$/, '')}${path === '/' ? '/' : `${path}/`}`
}
