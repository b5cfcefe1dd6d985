import ArrowRight from 'lucide-react/icons/arrow-right'
import ChevronDown from 'lucide-react/icons/chevron-down'
import { useId } from 'react'
import type { Site } from './model'

/** The Services dropdown of the desktop bar (site/components/layout/ServicesMenu.tsx). */
export function ServicesMenu({ menu }: { menu: Site['services_menu'] }) {
  const panelId = useId()
  return (
    <li data-module="disclosure" data-close-on-focus-out="true" className="relative">
      <button
        type="button"
        data-disclosure-button="true"
        aria-expanded="false"
        aria-controls={panelId}
        className="group inline-flex h-10 items-center gap-1 rounded-full px-3.5 text-sm font-medium transition-colors duration-150 text-ink-700 hover:bg-ink-100 hover:text-ink-950 aria-expanded:bg-brand-50 aria-expanded:text-brand-700"
      >
        {menu.label}
        <ChevronDown aria-hidden="true" className="size-4 transition-transform duration-200 group-aria-expanded:rotate-180" />
      </button>
      <div
        id={panelId}
        hidden
        data-disclosure-panel="true"
        className="absolute top-full left-0 z-10 mt-3 w-80 rounded-2xl bg-white p-2 shadow-elevated ring-1 ring-ink-200/80"
      >
        <ul className="flex flex-col">
          {menu.links.map((link) => (
            <li key={link.href}>
              <a
                href={link.href}
                className="flex items-center justify-between rounded-xl px-4 py-3 text-sm font-medium transition-colors text-ink-800 hover:bg-ink-50 hover:text-ink-950"
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="mt-1 border-t border-ink-100 pt-1">
          <a href={menu.view_all.href} className="group flex items-center gap-2 rounded-xl px-4 py-3 text-sm font-semibold text-brand-700 hover:bg-brand-50">
            {menu.view_all.label}
            <ArrowRight aria-hidden="true" className="size-4 transition-transform group-hover:translate-x-0.5" />
          </a>
        </div>
      </div>
    </li>
  )
}
