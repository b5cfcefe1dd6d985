export type HighlightedTextProps = {
  text: string
  /** Words of `text` to accent (the first occurrence); ignored when absent or not found. */
  highlight?: string | null
  /** Class of the accented words: the brand gradient on light backgrounds by default. */
  accentClassName?: string
}

/**
 * Renders `text` with the `highlight` words accented. Lines may break between the accented
 * words but not inside one, so "End-to-End" never splits at a hyphen.
 */
export function HighlightedText({ text, highlight, accentClassName = 'text-accent-gradient' }: HighlightedTextProps) {
  const at = highlight ? text.indexOf(highlight) : -1
  if (!highlight || at < 0) return <>{text}</>
  const words = highlight.split(/(\s+)/)
  return (
    <>
      {text.slice(0, at)}
      <span className={accentClassName}>
        {words.map((word, i) =>
          /\s/.test(word) || word === '' ? (
            word
          ) : (
            <span key={i} className="whitespace-nowrap">
              {word}
            </span>
          ),
        )}
      </span>
      {text.slice(at + highlight.length)}
    </>
  )
}
