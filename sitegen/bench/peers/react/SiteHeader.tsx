import Menu from 'lucide-react/icons/menu'
import X from 'lucide-react/icons/x'
import { BrandLink } from './BrandLink'
import type { Site } from './model'
import { ServicesMenu } from './ServicesMenu'

const MOBILE_MENU_ID = 'mobile-menu'

/**
 * The fixed navigation bar (site/components/layout/SiteHeader.tsx): brand link, desktop links
 * with the Services dropdown, the Contact button, the menu button and the mobile menu.
 */
export function SiteHeader({ site }: { site: Site }) {
  const { ui } = site
  return (
    <header data-module="disclosure" className="fixed inset-x-0 top-0 z-50">
      <div className="border-b border-ink-200/70 bg-white/85 backdrop-blur-md backdrop-saturate-150">
        <div className="mx-auto flex h-header w-full max-w-page items-center justify-between gap-6 px-5 sm:px-6 lg:px-8">
          <BrandLink name={site.name} label={site.home_label} tone="dark" />
          <nav aria-label={ui.main_nav_label} className="hidden lg:block">
            <ul className="flex items-center gap-0.5 xl:gap-1">
              <ServicesMenu menu={site.services_menu} />
              {site.nav.map((link) => (
                <li key={link.href}>
                  <a
                    href={link.href}
                    className="transition-colors duration-150 inline-flex h-10 items-center rounded-full px-3.5 text-sm font-medium text-ink-700 hover:bg-ink-100 hover:text-ink-950"
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="flex items-center gap-2">
            <a
              href={site.cta.href}
              className="inline-flex items-center justify-center gap-2 rounded-full font-semibold whitespace-nowrap transition-[background-color,box-shadow,color,transform] duration-200 disabled:pointer-events-none disabled:opacity-60 [&>svg]:size-4 [&>svg]:shrink-0 bg-brand-600 text-white shadow-brand hover:bg-brand-700 active:translate-y-px h-10 px-5 text-sm group "
            >
              {site.cta.label}
            </a>
            <button
              type="button"
              data-disclosure-button="true"
              data-label-open={ui.open_menu}
              data-label-close={ui.close_menu}
              aria-expanded="false"
              aria-controls={MOBILE_MENU_ID}
              aria-label={ui.open_menu}
              className="group inline-flex size-11 items-center justify-center rounded-full text-ink-800 transition-colors hover:bg-ink-100 lg:hidden"
            >
              <Menu aria-hidden="true" className="size-6 group-aria-expanded:hidden" />
              <X aria-hidden="true" className="hidden size-6 group-aria-expanded:block" />
            </button>
          </div>
        </div>
      </div>
      <div
        aria-hidden="true"
        hidden
        data-disclosure-panel="true"
        data-disclosure-close="true"
        className="fixed inset-x-0 top-header bottom-0 -z-10 bg-ink-950/40 lg:hidden"
      />
      <div
        id={MOBILE_MENU_ID}
        hidden
        data-disclosure-panel="true"
        className="max-h-[calc(100dvh-var(--spacing-header))] overflow-y-auto border-t border-ink-200/70 bg-white shadow-elevated lg:hidden"
      >
        <nav aria-label={ui.mobile_nav_label} className="mx-auto w-full max-w-page px-5 py-4 sm:px-6">
          <ul className="flex flex-col gap-1">
            {site.mobile_links.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="transition-colors duration-150 flex items-center rounded-xl px-4 py-3 text-base font-medium text-ink-700 hover:bg-ink-100 hover:text-ink-950"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  )
}
