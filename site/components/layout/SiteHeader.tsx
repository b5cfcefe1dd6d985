import Menu from 'lucide-react/icons/menu'
import X from 'lucide-react/icons/x'
import type { Here } from '../../lib/paths'
import type { Settings } from '../../schema/Settings'
import type { Version } from '../../schema/Version'
import { enhance } from '../../enhance/modules'
import { ActionLink } from '../ui/ActionLink'
import { BrandLink } from './BrandLink'
import { DesktopNav } from './DesktopNav'
import { LanguageSwitcher } from './LanguageSwitcher'
import { MobileMenu } from './MobileMenu'

export type SiteHeaderProps = {
  settings: Pick<Settings, 'brand' | 'nav' | 'ui'>
  /** The page being rendered, asked whether a link is it. */
  here: Here
  /** The home page's path in the language of the page. */
  home: string
  /** This page in every language of the site; absent on a site of one language. */
  languages?: Version[]
}

const MOBILE_MENU_ID = 'mobile-menu'

/**
 * The fixed navigation bar: brand link, desktop links with the Services dropdown, the
 * Contact button, and on narrow screens a hamburger button for the mobile menu. The menu is a
 * `disclosure` (enhance/Disclosure.ts): it closes on Escape (focus returns to the button), a
 * click outside the bar or on the dimmed page, and choosing a link; each page is a full load,
 * so it is closed on every new page.
 */
export function SiteHeader({ settings, here, home, languages }: SiteHeaderProps) {
  const { brand, nav, ui } = settings
  return (
    <header {...enhance('disclosure')} className="fixed inset-x-0 top-0 z-50">
      <div className="border-b border-ink-200/70 bg-white/85 backdrop-blur-md backdrop-saturate-150">
        <div className="mx-auto flex h-header w-full max-w-page items-center justify-between gap-6 px-5 sm:px-6 lg:px-8">
          <BrandLink name={brand.name} href={home} label={nav.home_label} />
          <DesktopNav nav={nav} label={ui.main_nav_label} here={here} />
          <div className="flex items-center gap-2">
            {languages && (
              // On narrow screens the mobile menu holds it: one landmark at every width.
              <LanguageSwitcher
                languages={languages}
                label={ui.languages_label}
                notTranslated={ui.not_translated}
                className="hidden lg:block"
              />
            )}
            <ActionLink href={nav.cta.href} arrow={false}>
              {nav.cta.label}
            </ActionLink>
            <button
              type="button"
              data-disclosure-button
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
      <MobileMenu id={MOBILE_MENU_ID} links={nav.mobile_links} label={ui.mobile_nav_label} here={here}>
        {languages && (
          <LanguageSwitcher
            languages={languages}
            label={ui.languages_label}
            notTranslated={ui.not_translated}
            className="mx-auto w-full max-w-page border-t border-ink-200/70 px-5 py-3 sm:px-6"
          />
        )}
      </MobileMenu>
    </header>
  )
}
