import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'
import { enhance } from '../../enhance/modules'

export type RevealProps = {
  children: ReactNode
  /** Element to render: `div` (default), `section`, `li` or `article`. */
  as?: 'div' | 'section' | 'li' | 'article'
  /** Milliseconds to wait after the element is seen, to stagger items in a row. */
  delay?: number
  className?: string
}

/**
 * Content that fades in (from transparent, shifted down) the first time it scrolls into view,
 * through the `reveal` enhancement (enhance/Reveal.ts), which sets `data-reveal` to `hidden`
 * then `shown`. The HTML says `static`: fully visible without JavaScript.
 */
export function Reveal({ children, as: Tag = 'div', delay = 0, className }: RevealProps) {
  return (
    <Tag
      {...enhance('reveal')}
      data-reveal="static"
      data-reveal-delay={delay > 0 ? delay : undefined}
      className={cx(
        'data-[reveal=hidden]:translate-y-8 data-[reveal=hidden]:opacity-0',
        'data-[reveal=shown]:transition-[opacity,translate] data-[reveal=shown]:duration-(--reveal-duration) data-[reveal=shown]:ease-out',
        className,
      )}
    >
      {children}
    </Tag>
  )
}
