import type { Logo } from '../../schema/Logo'
import { cx } from '../../lib/cx'

export type LogoGridProps = {
  /** Logos with their brand names (the images' alternative text), from content. */
  logos: Logo[]
  /**
   * Logos per row: 4 (default; two on phones), 8 (a single row from `xl` up), or 2 (always two,
   * for narrow columns).
   */
  columns?: 2 | 4 | 8
  /** Load the images lazily (default), for logos below the fold. */
  lazy?: boolean
  className?: string
}

/**
 * A list of logos, each on a white tile. Every image has a fixed 160×48 box (the SVG scales
 * inside it), so nothing shifts while the images load.
 */
export function LogoGrid({ logos, columns = 4, lazy = true, className }: LogoGridProps) {
  return (
    <ul
      role="list"
      className={cx(
        'grid grid-cols-2 gap-3 sm:gap-4',
        columns !== 2 && 'sm:grid-cols-4',
        columns === 8 && 'xl:grid-cols-8',
        className,
      )}
    >
      {logos.map((logo) => (
        <li
          key={logo.name}
          className="flex h-24 items-center justify-center rounded-card border border-ink-200/80 bg-white px-4 shadow-xs transition-[border-color,box-shadow] duration-200 hover:border-brand-200 hover:shadow-card"
        >
          <img
            src={logo.logo}
            alt={logo.name}
            width={160}
            height={48}
            loading={lazy ? 'lazy' : undefined}
            decoding="async"
            className="h-10 w-full max-w-36 object-contain"
          />
        </li>
      ))}
    </ul>
  )
}
