import type { Statistic } from '../../schema/Statistic'
import { cx } from '../../lib/cx'

export type StatsRowProps = {
  /** Figures with their captions, from content (`{ number, label }`). */
  stats: Statistic[]
  /** `light` on white/muted sections, `dark` on ink or brand sections. */
  on?: 'light' | 'dark'
  /** `plain` figures on the section background, or each figure on its own `card`. */
  variant?: 'plain' | 'card'
  /** Figures per row from `lg` up (phones always show two). Default: one row for up to four. */
  columns?: 2 | 3 | 4
  className?: string
}

/**
 * A row of headline figures (`5K+ Experts`) as a description list: two columns on phones,
 * `columns` from `lg` up. Screen readers read the caption, then the figure.
 */
const columnClasses = { 2: undefined, 3: 'lg:grid-cols-3', 4: 'lg:grid-cols-4' } as const

export function StatsRow({
  stats,
  on = 'light',
  variant = 'plain',
  columns = stats.length >= 4 ? 4 : stats.length === 3 ? 3 : 2,
  className,
}: StatsRowProps) {
  const light = on === 'light'
  return (
    <dl
      className={cx(
        'grid grid-cols-2 gap-4 sm:gap-6',
        columnClasses[columns],
        className,
      )}
    >
      {stats.map((stat) => (
        <div
          key={`${stat.number}|${stat.label}`}
          className={cx(
            'flex flex-col-reverse gap-2',
            variant === 'card' && 'justify-end rounded-card border p-6 text-center sm:p-8',
            variant === 'card' && (light ? 'border-ink-200/80 bg-white shadow-card' : 'border-white/10 bg-white/5'),
            variant === 'plain' && 'text-center',
          )}
        >
          <dt className={cx('text-sm font-medium sm:text-base', light ? 'text-ink-600' : 'text-ink-300')}>{stat.label}</dt>
          <dd
            className={cx(
              'text-4xl font-bold tracking-tight tabular-nums sm:text-5xl',
              light ? 'text-brand-700' : 'text-white',
            )}
          >
            {stat.number}
          </dd>
        </div>
      ))}
    </dl>
  )
}
