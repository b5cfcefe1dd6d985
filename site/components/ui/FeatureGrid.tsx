import type { Feature } from '../../schema/Feature'
import { cx } from '../../lib/cx'
import { ContentIcon } from '../icons/ContentIcon'
import { Reveal } from './Reveal'
import { Card } from './Card'

export type FeatureGridProps = {
  /** Tiles with an icon, a title and a sentence, from content. */
  features: Feature[]
  /** Columns from `lg` up (phones show one, tablets two). Default: 4 for four tiles, else 3. */
  columns?: 2 | 3 | 4
  /** Heading level of each tile's title: 3 under a section h2 (default), 4 under an h3. */
  headingLevel?: 3 | 4
  /** `light` on white/muted sections, `dark` on ink sections. */
  on?: 'light' | 'dark'
  /** Fade each tile in as it scrolls into view (staggered). */
  reveal?: boolean
  className?: string
}

const columnClasses = { 2: 'lg:grid-cols-2', 3: 'lg:grid-cols-3', 4: 'lg:grid-cols-4' } as const

/** A grid of feature tiles: icon badge, title and description, as a list. */
export function FeatureGrid({
  features,
  columns = features.length === 4 ? 4 : 3,
  headingLevel = 3,
  on = 'light',
  reveal = false,
  className,
}: FeatureGridProps) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4'
  const light = on === 'light'
  return (
    <ul role="list" className={cx('grid gap-5 sm:grid-cols-2 lg:gap-6', columnClasses[columns], className)}>
      {features.map((feature, i) => {
        const tile = (
          <Card on={light ? 'light' : 'dark'} className="h-full gap-4 sm:p-7">
            <span
              className={cx(
                'grid size-12 place-items-center rounded-xl',
                light ? 'bg-brand-50 text-brand-700 ring-1 ring-brand-100' : 'bg-brand-500/15 text-brand-200',
              )}
            >
              <ContentIcon icon={feature.icon} className="size-6" />
            </span>
            <Heading className={cx('text-subtitle', light ? 'text-ink-950' : 'text-white')}>{feature.title}</Heading>
            <p className={cx('text-pretty', light ? 'text-ink-600' : 'text-ink-300')}>{feature.description}</p>
          </Card>
        )
        return reveal ? (
          <Reveal as="li" key={feature.title} delay={i * 100}>
            {tile}
          </Reveal>
        ) : (
          <li key={feature.title}>{tile}</li>
        )
      })}
    </ul>
  )
}
