import './app.css'
import type { ReactNode } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { Toasts } from '../components/forms/Toasts'
import { SiteFooter } from '../components/layout/SiteFooter'
import { SiteHeader } from '../components/layout/SiteHeader'
import { SkipLink } from '../components/layout/SkipLink'
import { settings } from '../lib/settings'

const MAIN_ID = 'main'

// The frame around every page, the 404 page included. Settings come from lib/settings.ts
// (bundled once), not from page data, so the frame renders even where no page data exists.
// Vike's client router scrolls to the top after each navigation (and restores the position on
// back/forward), which gives the "scroll to top on route change" behaviour.
export default function Layout({ children }: { children: ReactNode }) {
  const { urlPathname } = usePageContext()
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink targetId={MAIN_ID} label={settings.ui.skip_to_content} />
      <SiteHeader settings={settings} pathname={urlPathname} />
      <main id={MAIN_ID} tabIndex={-1} className="flex-1 pt-header outline-none">
        {children}
      </main>
      <SiteFooter settings={settings} />
      <Toasts label={settings.ui.notifications_label} />
    </div>
  )
}
