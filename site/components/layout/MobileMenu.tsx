import type { ReactNode } from 'react'
import type { Here } from '../../lib/paths'
import type { Link } from '../../schema/Link'
import { NavLink } from './NavLink'

export type MobileMenuProps = {
  id: string
  links: Link[]
  label: string
  /** The page being rendered, asked whether a link is it. */
  here: Here
  /** Shown under the links (the language switcher). */
  children?: ReactNode
}

/**
 * The menu panel the hamburger button opens on narrow screens, with its own list of links;
 * hidden until the header's disclosure (enhance/Disclosure.ts) shows it.
 */
export function MobileMenu({ id, links, label, here, children }: MobileMenuProps) {
  return (
    <>
      {/* Dims the page under the open menu; a click on it closes the menu like any outside click. */}
      <div
        aria-hidden="true"
        hidden
        data-disclosure-panel
        data-disclosure-close
        className="fixed inset-x-0 top-header bottom-0 -z-10 bg-ink-950/40 lg:hidden"
      />
      <div
        id={id}
        hidden
        data-disclosure-panel
        className="max-h-[calc(100dvh-var(--spacing-header))] overflow-y-auto border-t border-ink-200/70 bg-white shadow-elevated lg:hidden"
      >
        <nav aria-label={label} className="mx-auto w-full max-w-page px-5 py-4 sm:px-6">
          <ul className="flex flex-col gap-1">
            {links.map((link) => (
              <li key={link.href}>
                <NavLink href={link.href} here={here} look="row">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {children}
      </div>
    </>
  )
}
