import { ArrowRight, ChevronDown } from 'lucide-react'
import { type FocusEvent, useId, useRef } from 'react'
import type { ServicesMenu as ServicesMenuContent } from '../../schema/ServicesMenu'
import { cx } from '../../lib/cx'
import { isCurrentPage, isWithin } from '../../lib/paths'
import { useDismiss } from '../../lib/useDismiss'
import { useOpenOnPage } from '../../lib/useOpenOnPage'

export type ServicesMenuProps = {
  menu: ServicesMenuContent
  pathname: string
}

/**
 * The Services dropdown of the desktop bar: a disclosure (a button with aria-expanded that
 * shows a list of links), the pattern recommended for site navigation — a `role="menu"`
 * widget would take links out of the normal reading and Tab order. Opens on click (Enter and
 * Space included); closes on outside click, Escape (focus returns to the button), focus
 * leaving it, choosing a link, and route change.
 */
export function ServicesMenu({ menu, pathname }: ServicesMenuProps) {
  const { open, setOpen, toggle } = useOpenOnPage(pathname)
  const rootRef = useRef<HTMLLIElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelId = useId()

  useDismiss(open, rootRef, (reason) => {
    setOpen(false)
    if (reason === 'escape') buttonRef.current?.focus()
  })

  const onBlur = (event: FocusEvent) => {
    const next = event.relatedTarget
    if (open && next instanceof Node && !rootRef.current?.contains(next)) setOpen(false)
  }

  const inServices = isWithin(menu.view_all.href, pathname)

  return (
    <li ref={rootRef} className="relative" onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={toggle}
        className={cx(
          'inline-flex h-10 items-center gap-1 rounded-full px-3.5 text-sm font-medium transition-colors duration-150',
          inServices || open ? 'bg-brand-50 text-brand-700' : 'text-ink-700 hover:bg-ink-100 hover:text-ink-950',
        )}
      >
        {menu.label}
        <ChevronDown
          aria-hidden="true"
          className={cx('size-4 transition-transform duration-200', open && 'rotate-180')}
        />
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute top-full left-0 z-10 mt-3 w-80 rounded-2xl bg-white p-2 shadow-elevated ring-1 ring-ink-200/80"
      >
        <ul className="flex flex-col">
          {menu.links.map((link) => {
            const current = isCurrentPage(link.href, pathname)
            return (
              <li key={link.href}>
                <a
                  href={link.href}
                  aria-current={current ? 'page' : undefined}
                  onClick={() => setOpen(false)}
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
            aria-current={isCurrentPage(menu.view_all.href, pathname) ? 'page' : undefined}
            onClick={() => setOpen(false)}
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
