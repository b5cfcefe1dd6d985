import { type CSSProperties, type ReactNode, useLayoutEffect, useRef, useState } from 'react'
import { cx } from '../../lib/cx'

/** When an element counts as seen: 10% of it inside the viewport extended 50 px downwards. */
export const REVEAL_THRESHOLD = 0.1
export const REVEAL_ROOT_MARGIN = '0px 0px 50px 0px'

export type RevealProps = {
  children: ReactNode
  /** Element to render: `div` (default), `section`, `li` or `article`. */
  as?: 'div' | 'section' | 'li' | 'article'
  /** Milliseconds to wait after the element is seen, to stagger items in a row. */
  delay?: number
  className?: string
}

/**
 * Fades its children in (from transparent, shifted down, over 700 ms) the first time they
 * scroll into view; once shown they stay shown.
 *
 * Content is never hidden unless it will be revealed: the server HTML is fully visible (so
 * pages read fine without JavaScript), nothing animates under `prefers-reduced-motion`, and
 * elements already on screen when the page hydrates stay as they are. Only elements below the
 * fold are hidden, before they are painted, and wait for their first intersection.
 * `data-reveal` exposes the state (`static`, `hidden`, `shown`).
 */
export function Reveal({ children, as: Tag = 'div', delay = 0, className }: RevealProps) {
  const ref = useRef<HTMLElement>(null)
  const [state, setState] = useState<'static' | 'hidden' | 'shown'>('static')

  // A layout effect so below-the-fold content is hidden before the browser paints again.
  useLayoutEffect(() => {
    const element = ref.current
    if (!element || typeof IntersectionObserver === 'undefined') return
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return
    const { top } = element.getBoundingClientRect()
    if (top < window.innerHeight + 50) return
    setState('hidden')
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setState('shown')
          observer.disconnect()
        }
      },
      { threshold: REVEAL_THRESHOLD, rootMargin: REVEAL_ROOT_MARGIN },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const style: CSSProperties | undefined = state === 'shown' && delay > 0 ? { transitionDelay: `${delay}ms` } : undefined
  return (
    <Tag
      ref={ref as never}
      data-reveal={state}
      style={style}
      className={cx(
        state === 'hidden' && 'translate-y-8 opacity-0',
        state === 'shown' && 'translate-y-0 opacity-100 transition-[opacity,translate] duration-700 ease-out',
        className,
      )}
    >
      {children}
    </Tag>
  )
}
