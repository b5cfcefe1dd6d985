import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'

export type ContainerProps = {
  children: ReactNode
  /** `page` (80rem, default) for layouts and grids; `prose` (44rem) for running text. */
  size?: 'page' | 'prose'
  className?: string
}

/** Centres content with the site's horizontal padding and maximum width. */
export function Container({ children, size = 'page', className }: ContainerProps) {
  return (
    <div
      className={cx(
        'mx-auto w-full px-5 sm:px-6 lg:px-8',
        size === 'page' ? 'max-w-page' : 'max-w-prose',
        className,
      )}
    >
      {children}
    </div>
  )
}
