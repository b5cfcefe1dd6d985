import { useEffect, useState } from 'react'

/** Milliseconds per typed character, per deleted character, and the pause at the full phrase. */
export const TYPE_MS = 100
export const DELETE_MS = 50
export const PAUSE_MS = 2000

export type TypingHeadlineProps = {
  /** The whole headline (`hero.title`). */
  text: string
  /** The words of `text` that are typed, deleted and retyped (`hero.highlight`). */
  phrase: string
}

/** The text as displayed: non-breaking hyphens, so `End-to-End` never splits across lines. */
function unbroken(text: string) {
  return text.replaceAll('-', '\u2011')
}

/**
 * A headline whose `phrase` types itself out, pauses, deletes and loops. The server HTML and
 * the first render hold the full phrase; the animation starts only after hydration and never
 * under `prefers-reduced-motion`. Screen readers get the phrase once, from a visually hidden
 * copy, while the animated text is hidden from them. An invisible copy of the full phrase
 * reserves its box (at least 280 px wide), so nothing around it moves while it animates.
 */
export function TypingHeadline({ text, phrase }: TypingHeadlineProps) {
  const chars = Array.from(phrase)
  const [count, setCount] = useState(chars.length)

  useEffect(() => {
    const motion = window.matchMedia('(prefers-reduced-motion: reduce)')
    const total = Array.from(phrase).length
    let timer: ReturnType<typeof setTimeout> | undefined
    let shown = total
    let deleting = true
    const step = () => {
      shown += deleting ? -1 : 1
      setCount(shown)
      if (shown === 0) deleting = false
      else if (shown === total) deleting = true
      timer = setTimeout(step, shown === total ? PAUSE_MS : deleting ? DELETE_MS : TYPE_MS)
    }
    const start = () => {
      clearTimeout(timer)
      shown = total
      deleting = true
      setCount(total)
      if (!motion.matches) timer = setTimeout(step, PAUSE_MS)
    }
    start()
    motion.addEventListener('change', start)
    return () => {
      clearTimeout(timer)
      motion.removeEventListener('change', start)
    }
  }, [phrase])

  const at = text.indexOf(phrase)
  const before = at >= 0 ? text.slice(0, at) : `${text} `
  const after = at >= 0 ? text.slice(at + phrase.length) : ''
  return (
    <>
      {before}
      <span className="inline-grid min-w-[280px] align-top">
        <span className="sr-only">{phrase}</span>
        <span aria-hidden="true" className="invisible col-start-1 row-start-1">
          {unbroken(phrase)}
        </span>
        <span aria-hidden="true" data-typing className="col-start-1 row-start-1">
          <span className="text-accent-gradient">
            {unbroken(chars.slice(0, count).join(''))}
          </span>
          {/* The cursor takes no width, so the typed text wraps exactly like the reserved copy. */}
          <span className="-mr-[0.08em] inline-block h-[0.85em] w-[0.08em] animate-pulse rounded-full bg-brand-600 align-[-0.05em] motion-reduce:hidden" />
        </span>
      </span>
      {after}
    </>
  )
}
