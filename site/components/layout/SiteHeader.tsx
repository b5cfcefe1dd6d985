import { Menu, X } from 'lucide-react'
import { useRef } from 'react'
import type { Settings } from '../../schema/Settings'
import { useDismiss } from '../../lib/useDismiss'
import { useOpenOnPage } from '../../lib/useOpenOnPage'
import { ActionLink } from '../ui/ActionLink'
import { BrandLink } from './BrandLink'
import { DesktopNav } from './DesktopNav'
import { MobileMenu } from './MobileMenu'

export type SiteHeaderProps = {
  settings: Pick<Settings, 'brand' | 'nav' | 'ui'>
  pathname: string
}

const MOBILE_MENU_ID = 'mobile-menu'

/**
 * The fixed navigation bar: brand link, desktop links with the Services dropdown, the
 * Contact button, and on narrow screens a hamburger button for the mobile menu, which closes
 * on route change, Escape (focus returns to the button) and a click outside the bar.
 */
export function SiteHeader({ settings, pathname }: SiteHeaderProps) {
  const { brand, nav, ui } = settings
  const mobile = useOpenOnPage(pathname)
  const headerRef = useRef<HTMLElement>(null)
  const toggleRef = useRef<HTMLButtonElement>(null)

  useDismiss(mobile.open, headerRef, (reason) => {
    mobile.setOpen(false)
    if (reason === 'escape') toggleRef.current?.focus()
  })

  return (
    <header ref={headerRef} className="fixed inset-x-0 top-0 z-50">
      <div className="border-b border-ink-200/70 bg-white/85 backdrop-blur-md backdrop-saturate-150">
        <div className="mx-auto flex h-header w-full max-w-page items-center justify-between gap-6 px-5 sm:px-6 lg:px-8">
          <BrandLink name={brand.name} label={nav.home_label} />
          <DesktopNav nav={nav} label={ui.main_nav_label} pathname={pathname} />
          <div className="flex items-center gap-2">
            <ActionLink href={nav.cta.href} arrow={false}>
              {nav.cta.label}
            </ActionLink>
            <button
              ref={toggleRef}
              type="button"
              aria-expanded={mobile.open}
              aria-controls={MOBILE_MENU_ID}
              aria-label={mobile.open ? ui.close_menu : ui.open_menu}
              onClick={mobile.toggle}
              className="inline-flex size-11 items-center justify-center rounded-full text-ink-800 transition-colors hover:bg-ink-100 lg:hidden"
            >
              {mobile.open ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
            </button>
          </div>
        </div>
      </div>
      <MobileMenu
        id={MOBILE_MENU_ID}
        open={mobile.open}
        links={nav.mobile_links}
        label={ui.mobile_nav_label}
        pathname={pathname}
        onNavigate={() => mobile.setOpen(false)}
      />
    </header>
  )
}
