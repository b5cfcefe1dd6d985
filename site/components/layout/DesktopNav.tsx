import type { Here } from '../../lib/paths'
import type { Navigation } from '../../schema/Navigation'
import { NavLink } from './NavLink'
import { ServicesMenu } from './ServicesMenu'

export type DesktopNavProps = {
  nav: Navigation
  label: string
  /** The page being rendered, asked whether a link is it. */
  here: Here
}

/** The navigation bar's links on wide screens: the Services dropdown, then the page links. */
export function DesktopNav({ nav, label, here }: DesktopNavProps) {
  return (
    <nav aria-label={label} className="hidden lg:block">
      <ul className="flex items-center gap-0.5 xl:gap-1">
        <ServicesMenu menu={nav.services} here={here} />
        {nav.links.map((link) => (
          <li key={link.href}>
            <NavLink href={link.href} here={here}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
