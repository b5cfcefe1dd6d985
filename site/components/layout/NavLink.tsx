import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'
import type { Here } from '../../lib/paths'

export type NavLinkProps = {
  href: string
  /** The page being rendered, asked whether a link is it. */
  here: Here
  children: ReactNode
  /** `bar` for the desktop bar, `row` for the mobile menu and the dropdown panel. */
  look?: 'bar' | 'row'
}

/** A navigation link, highlighted and marked `aria-current="page"` when it is the current page. */
export function NavLink({ href, here, children, look = 'bar' }: NavLinkProps) {
  const current = here.isCurrentPage(href)
  return (
    <a
      href={href}
      aria-current={current ? 'page' : undefined}
      className={cx(
        'transition-colors duration-150',
        look === 'bar'
          ? 'inline-flex h-10 items-center rounded-full px-3.5 text-sm font-medium'
          : 'flex items-center rounded-xl px-4 py-3 text-base font-medium',
        current ? 'bg-brand-50 text-brand-700' : 'text-ink-700 hover:bg-ink-100 hover:text-ink-950',
      )}
    >
      {children}
    </a>
  )
}
