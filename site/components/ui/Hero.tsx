import type { ReactNode } from 'react'
import type { Hero as HeroContent } from '../../schema/Hero'
import { cx } from '../../lib/cx'
import { ActionGroup } from './ActionGroup'
import { Container } from './Container'
import { HighlightedText } from './HighlightedText'

export type HeroProps = {
  hero: HeroContent
  /** `center` for landing-style pages, `left` for inner pages with `aside` content. */
  align?: 'left' | 'center'
  /** Extra content under the actions (e.g. a search box or a stats row). */
  children?: ReactNode
  /** Content beside the text on wide screens (e.g. an illustration); `left` alignment only. */
  aside?: ReactNode
  /** Id of the h1, e.g. for `aria-labelledby`. */
  headingId?: string
  /** Replaces the h1's content (e.g. a typing headline built from `hero.title`). */
  title?: ReactNode
}

/** The opening band of every page: eyebrow, h1 with highlighted words, lead and actions. */
export function Hero({ hero, align = 'center', children, aside, headingId, title }: HeroProps) {
  const centered = align === 'center'
  return (
    <section aria-labelledby={headingId} className="relative isolate overflow-hidden bg-hero">
      <div aria-hidden="true" className="bg-grid absolute inset-0 -z-10" />
      <Container
        className={cx(
          'pt-16 pb-20 sm:pt-24 sm:pb-28 lg:pt-28 lg:pb-32',
          aside != null && !centered && 'grid items-center gap-12 lg:grid-cols-[1.1fr_0.9fr]',
        )}
      >
        <div className={cx('flex flex-col gap-6', centered ? 'mx-auto max-w-4xl items-center text-center' : 'max-w-3xl')}>
          {hero.eyebrow && (
            <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/80 px-3.5 py-1.5 text-sm font-medium text-brand-800 shadow-xs backdrop-blur">
              <span aria-hidden="true" className="size-1.5 rounded-full bg-brand-600" />
              {hero.eyebrow}
            </p>
          )}
          <h1 id={headingId} className="text-display text-balance text-ink-950">
            {title ?? <HighlightedText text={hero.title} highlight={hero.highlight} />}
          </h1>
          <p className={cx('max-w-2xl text-pretty text-lead text-ink-600', centered && 'mx-auto')}>{hero.lead}</p>
          <ActionGroup actions={hero.actions} align={centered ? 'center' : 'left'} className="pt-2" />
          {children}
        </div>
        {aside != null && !centered && <div className="relative">{aside}</div>}
      </Container>
    </section>
  )
}
