import type { Settings } from '../../schema/Settings'
import { BrandLink } from './BrandLink'
import { SocialList } from './SocialList'

export type SiteFooterProps = {
  settings: Pick<Settings, 'brand' | 'nav' | 'footer' | 'ui'>
  /** The home page's path in the language of the page. */
  home: string
}

/** The four-column footer: brand and description, then the link columns from content. */
export function SiteFooter({ settings, home }: SiteFooterProps) {
  const { brand, nav, footer, ui } = settings
  return (
    <footer className="relative overflow-hidden bg-ink-950 text-ink-300">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 h-80 w-[48rem] -translate-x-1/2 rounded-full bg-brand-600/20 blur-3xl"
      />
      <div className="relative mx-auto w-full max-w-page px-5 pt-16 pb-10 sm:px-6 lg:px-8 lg:pt-20">
        <div className="grid gap-12 lg:grid-cols-12">
          <div className="flex flex-col gap-6 lg:col-span-4">
            <BrandLink name={brand.name} href={home} label={nav.home_label} on="dark" />
            <p className="max-w-sm text-sm leading-relaxed text-ink-400">{footer.description}</p>
            <SocialList label={footer.social_label} social={footer.social} />
          </div>
          <nav aria-label={ui.footer_nav_label} className="grid grid-cols-2 gap-10 sm:grid-cols-3 lg:col-span-7 lg:col-start-6">
            {footer.columns.map((column) => (
              <div key={column.title}>
                <h2 className="text-sm font-semibold text-white">{column.title}</h2>
                <ul className="mt-4 flex flex-col gap-3">
                  {column.links.map((link) => (
                    <li key={link.href}>
                      <a href={link.href} className="text-sm text-ink-400 transition-colors hover:text-white">
                        {link.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </div>
        <div className="mt-14 border-t border-white/10 pt-8">
          <p className="text-sm text-ink-400">{footer.copyright}</p>
        </div>
      </div>
    </footer>
  )
}
