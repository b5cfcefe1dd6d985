import ArrowRight from 'lucide-react/icons/arrow-right'
import ChevronDown from 'lucide-react/icons/chevron-down'
import { useId } from 'react'
import type { ServicesMenu as ServicesMenuContent } from '../../schema/ServicesMenu'
import { cx } from '../../lib/cx'
import type { Here } from '../../lib/paths'
import { enhance } from '../../enhance/modules'

export type ServicesMenuProps = {
  menu: ServicesMenuContent
  /** The page being rendered, asked whether a link is it. */
  here: Here
}

/**
 * The Services dropdown of the desktop bar: a disclosure (a button with aria-expanded that
 * shows a list of links), the pattern recommended for site navigation — a `role="menu"`
 * widget would take links out of the normal reading and Tab order. Opens on click (Enter and
 * Space included); closes on outside click, Escape (focus returns to the button), focus
 * leaving it and choosing a link (enhance/Disclosure.ts). Each page is a full load, so it is
 * closed on every new page. Without JavaScript the links stay reachable from the footer and
 * the services overview.
 */
export function ServicesMenu({ menu, here }: ServicesMenuProps) {
  const panelId = useId()
  const inServices = here.isWithin(menu.view_all.href)

  return (
    <li {...enhance('disclosure')} data-close-on-focus-out className="relative">
      <button
        type="button"
        data-disclosure-button
        aria-expanded="false"
        aria-controls={panelId}
        className={cx(
          'group inline-flex h-10 items-center gap-1 rounded-full px-3.5 text-sm font-medium transition-colors duration-150',
          inServices
            ? 'bg-brand-50 text-brand-700'
            : 'text-ink-700 hover:bg-ink-100 hover:text-ink-950 aria-expanded:bg-brand-50 aria-expanded:text-brand-700',
        )}
      >
        {menu.label}
        <ChevronDown aria-hidden="true" className="size-4 transition-transform duration-200 group-aria-expanded:rotate-180" />
      </button>
      <div
        id={panelId}
        hidden
        data-disclosure-panel
        className="absolute top-full left-0 z-10 mt-3 w-80 rounded-2xl bg-white p-2 shadow-elevated ring-1 ring-ink-200/80"
      >
        <ul className="flex flex-col">
          {menu.links.map((link) => {
            const current = here.isCurrentPage(link.href)
            return (
              <li key={link.href}>
                <a
                  href={link.href}
                  aria-current={current ? 'page' : undefined}
                  className={cx(
                    'flex items-center justify-between rounded-xl px-4 py-3 text-sm font-medium transition-colors',
                    current ? 'bg-brand-50 text-brand-700' : 'text-ink-800 hover:bg-ink-50 hover:text-ink-950',
                  )}
                >
                  {link.label}
                </a>
              </li>
            )
          })}
        </ul>
        <div className="mt-1 border-t border-ink-100 pt-1">
          <a
            href={menu.view_all.href}
            aria-current={here.isCurrentPage(menu.view_all.href) ? 'page' : undefined}
            className="group flex items-center gap-2 rounded-xl px-4 py-3 text-sm font-semibold text-brand-700 hover:bg-brand-50"
          >
            {menu.view_all.label}
            <ArrowRight aria-hidden="true" className="size-4 transition-transform group-hover:translate-x-0.5" />
          </a>
        </div>
      </div>
    </li>
  )
}
