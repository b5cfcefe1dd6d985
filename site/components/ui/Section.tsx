import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'
import { Container } from './Container'

export type SectionTone = 'plain' | 'muted' | 'dark' | 'brand'

export type SectionProps = {
  children: ReactNode
  /** Anchor id (e.g. `join-our-mission`); scroll padding keeps it clear of the fixed bar. */
  id?: string
  /** Background: `plain` white, `muted` light grey, `dark` ink, `brand` accent. */
  tone?: SectionTone
  /** Id of the section's heading, so the section is a named landmark region. */
  labelledBy?: string
  /** Vertical rhythm: `default` for content sections, `compact` for bands like logo rows. */
  spacing?: 'default' | 'compact'
  /** Wrap children in a Container (default). Set false for full-bleed content. */
  contained?: boolean
  className?: string
}

const tones: Record<SectionTone, string> = {
  plain: 'bg-white text-ink-900',
  muted: 'bg-ink-50 text-ink-900 border-y border-ink-100',
  dark: 'bg-ink-950 text-white',
  brand: 'bg-brand-700 text-white',
}

/** A page section with consistent vertical spacing and background tone. */
export function Section({
  children,
  id,
  tone = 'plain',
  labelledBy,
  spacing = 'default',
  contained = true,
  className,
}: SectionProps) {
  return (
    <section
      id={id}
      aria-labelledby={labelledBy}
      data-tone={tone}
      className={cx(
        'relative',
        spacing === 'default' ? 'py-20 sm:py-24 lg:py-28' : 'py-12 sm:py-16',
        tones[tone],
        className,
      )}
    >
      {contained ? <Container>{children}</Container> : children}
    </section>
  )
}
