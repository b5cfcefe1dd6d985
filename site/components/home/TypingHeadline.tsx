import { enhance } from '../../enhance/modules'

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
 * A headline whose `phrase` types itself out, pauses, deletes and loops (enhance/TypingHeadline.ts;
 * timings in lib/motion.ts). The HTML holds the full phrase, which stays as it is without
 * JavaScript and under `prefers-reduced-motion`. Screen readers get the phrase once, from a
 * visually hidden copy, while the animated text is hidden from them. An invisible copy of the
 * full phrase reserves its box (at least `--typing-min-width` wide), so nothing around it moves
 * while it animates.
 */
export function TypingHeadline({ text, phrase }: TypingHeadlineProps) {
  const at = text.indexOf(phrase)
  const before = at >= 0 ? text.slice(0, at) : `${text} `
  const after = at >= 0 ? text.slice(at + phrase.length) : ''
  return (
    <>
      {before}
      <span className="inline-grid min-w-(--typing-min-width) align-top">
        <span className="sr-only">{phrase}</span>
        <span aria-hidden="true" className="invisible col-start-1 row-start-1">
          {unbroken(phrase)}
        </span>
        <span aria-hidden="true" data-typing {...enhance('typing')} className="col-start-1 row-start-1">
          <span className="text-accent-gradient">{unbroken(phrase)}</span>
          {/* The cursor takes no width, so the typed text wraps exactly like the reserved copy. */}
          <span className="-mr-[0.08em] inline-block h-[0.85em] w-[0.08em] animate-pulse rounded-full bg-brand-600 align-[-0.05em] motion-reduce:hidden" />
        </span>
      </span>
      {after}
    </>
  )
}
