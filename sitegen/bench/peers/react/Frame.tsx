import type { ReactNode } from 'react'
import type { Site } from './model'
import { SiteFooter } from './SiteFooter'
import { SiteHeader } from './SiteHeader'

/** The frame of every page, as sitegen's layout (site/pages/+Layout.tsx): skip link, header, main, footer. */
export function Frame({ site, children }: { site: Site; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[100] focus:rounded-full focus:bg-ink-950 focus:px-5 focus:py-3 focus:text-sm focus:font-semibold focus:text-white focus:shadow-elevated"
      >
        {site.ui.skip_to_content}
      </a>
      <SiteHeader site={site} />
      <main id="main" tabIndex={-1} className="flex-1 pt-header outline-none">
        {children}
      </main>
      <SiteFooter site={site} />
    </div>
  )
}
