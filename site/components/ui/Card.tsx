import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'

export type CardProps = {
  children: ReactNode
  /** Element to render: `article` for self-contained items, `li` inside a list, `figure` for a quote. */
  as?: 'div' | 'article' | 'li' | 'figure'
  /** Lift and tint on hover, for cards that contain a (stretched) link. */
  interactive?: boolean
  /** `md` (default) or `lg` padding; `none` for a card whose picture runs to its edges. */
  padding?: 'none' | 'md' | 'lg'
  /** `light` on white/muted sections, `dark` on ink sections. */
  on?: 'light' | 'dark'
  className?: string
}

/**
 * A bordered surface for grouped content. For a whole-card link, put an `<a>` on the title
 * with `after:absolute after:inset-0` and pass `interactive`; the card is `relative`.
 */
export function Card({ children, as: Tag = 'div', interactive = false, padding = 'md', on = 'light', className }: CardProps) {
  return (
    <Tag
      className={cx(
        'relative flex flex-col rounded-card border',
        padding === 'md' && 'p-6',
        padding === 'lg' && 'p-8 sm:p-10',
        on === 'light' ? 'border-ink-200/80 bg-white shadow-card' : 'border-white/10 bg-white/5 text-white',
        interactive &&
          'transition-[box-shadow,transform,border-color] duration-200 hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-elevated focus-within:border-brand-300',
        className,
      )}
    >
      {children}
    </Tag>
  )
}
