import { cx } from '../../lib/cx'
import { Eyebrow } from './Eyebrow'
import { HighlightedText } from './HighlightedText'

export type SectionHeadingProps = {
  title: string
  /** Id for the heading, to pass to `Section labelledBy`. */
  id?: string
  eyebrow?: string | null
  highlight?: string | null
  lead?: string | null
  /** `center` for standalone section intros, `left` beside content. */
  align?: 'left' | 'center'
  /** Heading level: 2 for page sections (default), 3 inside a section. */
  level?: 2 | 3
  /** `light` on white/muted sections, `dark` on dark/brand ones. */
  on?: 'light' | 'dark'
  className?: string
}

/** Eyebrow, heading and lead paragraph that open a section. */
export function SectionHeading({
  title,
  id,
  eyebrow,
  highlight,
  lead,
  align = 'center',
  level = 2,
  on = 'light',
  className,
}: SectionHeadingProps) {
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <div
      className={cx(
        'flex max-w-3xl flex-col gap-4',
        align === 'center' ? 'mx-auto items-center text-center' : 'items-start text-left',
        className,
      )}
    >
      {eyebrow && <Eyebrow on={on}>{eyebrow}</Eyebrow>}
      <Heading
        id={id}
        className={cx(
          'text-balance',
          level === 2 ? 'text-title' : 'text-subtitle',
          on === 'light' ? 'text-ink-950' : 'text-white',
        )}
      >
        <HighlightedText
          text={title}
          highlight={highlight}
          accentClassName={on === 'light' ? 'text-accent-gradient' : 'text-brand-300'}
        />
      </Heading>
      {lead && (
        <p className={cx('text-pretty text-lead', on === 'light' ? 'text-ink-600' : 'text-ink-300')}>{lead}</p>
      )}
    </div>
  )
}
