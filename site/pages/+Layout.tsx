import './app.css'
import type { ReactNode } from 'react'
import { useData } from 'vike-react/useData'
import { usePageContext } from 'vike-react/usePageContext'
import { shownLanguages } from '../components/layout/LanguageSwitcher'
import { SiteFooter } from '../components/layout/SiteFooter'
import { SiteHeader } from '../components/layout/SiteHeader'
import { PublishingBanner } from '../components/layout/PublishingBanner'
import { SkipLink } from '../components/layout/SkipLink'
import { pathOf, routeByPath } from '../lib/content.server'
import type { PageDataBase } from '../lib/pageMeta'
import { Once } from '../lib/once.server'
import { Here } from '../lib/paths'
import { siteSettings } from '../lib/settings'

const MAIN_ID = 'main'

// The frame around every page, the 404 page included. Settings come from lib/settings.ts
// (the content being rendered), not from page data, so the frame renders even where no page data exists.
// Rendered at build time only: every page is a full load of a static file (speculation rules
// in +Head.tsx make it quick), so each new page starts at the top with its menus closed. The
// header and the footer are alike on most pages: `Once` renders each once for all the pages that
// show it alike (lib/once.server.tsx); they learn the page's path only through `Here`'s questions.
export default function Layout({ children }: { children: ReactNode }) {
  const { urlPathname, is404 } = usePageContext()
  const settings = siteSettings()
  const versions = is404 ? undefined : routeByPath(urlPathname)?.versions
  const languages = versions && shownLanguages(versions.languages)
  const home = pathOf('home', {})
  const { banner } = useData<PageDataBase>()
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink targetId={MAIN_ID} label={settings.ui.skip_to_content} />
      <Once part={SiteHeader} props={{ settings, here: new Here(urlPathname), home, languages }} />
      <main id={MAIN_ID} tabIndex={-1} className="flex-1 pt-header outline-none">
        {banner && <PublishingBanner text={banner} />}
        {children}
      </main>
      <Once part={SiteFooter} props={{ settings, home }} />
    </div>
  )
}
