// The editor's preview pane: the entry's page drawn by the site's own page component, in the
// site's own stylesheet, from the data a build would give it.
//
// As the author types, the entry (as the editor holds it) is posted to the dev server, which
// answers with the page context of its page (lib/devPreview.ts: sitegen loads the content with
// the entry in it, the page's own `+data` turns it into the page's data). The page component
// reads it as it reads a build's, through vike-react's page context: nothing of a component is
// copied or forked; what they read besides (`siteSettings()`) is the frame of the same content,
// put where they read it. An entry that does not validate yet keeps the last page it made, under
// its mistakes. Loaded by the editor only (admin/cms.ts), never by a page of the site.
import type { CMS, PreviewTemplateComponentProps } from 'decap-cms-core'
import { type ComponentType, useEffect, useState } from 'react'
import type { PageContext } from 'vike/types'
import { VikeReactProviderPageContext } from 'vike-react/usePageContext'
import { PublishingBanner } from '../components/layout/PublishingBanner'
import type { SiteContent } from '../lib/content.server'
import { setContent } from '../lib/contentGlobal'
import type { PreviewAnswer, PreviewRequest } from '../lib/devPreview'
import type { PageDataBase } from '../lib/pageMeta'
import type { Frame } from '../lib/settings'
import type { EntryPage } from './previewPage.server'
import AboutPage from '../pages/about/+Page'
import BlogPage from '../pages/blog/+Page'
import CaseStudiesPage from '../pages/case-studies/+Page'
import ContactPage from '../pages/contact/+Page'
import HomePage from '../pages/index/+Page'
import IndustriesPage from '../pages/industries/+Page'
import InsightsPage from '../pages/insights/+Page'
import ArticlePage from '../pages/insights/@slug/+Page'
import PrivacyPage from '../pages/privacy/+Page'
import ServiceCategoryPage from '../pages/services/@category/+Page'
import SubServicePage from '../pages/services/@category/@service/+Page'
import ServicesPage from '../pages/services/index/+Page'
import SolutionsPage from '../pages/solutions/+Page'
import TermsPage from '../pages/terms/+Page'
import type { PageKind } from '../lib/content.server'
// The site's Tailwind build, as the pages load it (pages/+Layout.tsx imports it).
import siteCss from '../pages/app.css?inline'
import { PREVIEW_PATH } from './endpoints'


/** How long typing pauses before the page is made again. */
const DEBOUNCE_MS = 300

/**
 * The collections whose entries have a page of their own, as `sitegen cms config` names them:
 * the articles, the fixed pages, the service categories with their sub-services
 * (sitegen/src/cms/preview.rs; the sub-services: admin/previewPage.server.ts).
 */
const PREVIEWED = ['articles', 'pages', 'services'] as const

/** The page component of each kind of page an entry of those makes: the folder Vike renders it from. */
const PAGES: Partial<Record<PageKind, ComponentType>> = {
  home: HomePage,
  insights: InsightsPage,
  contact: ContactPage,
  about: AboutPage,
  services: ServicesPage,
  industries: IndustriesPage,
  solutions: SolutionsPage,
  'case-studies': CaseStudiesPage,
  blog: BlogPage,
  privacy: PrivacyPage,
  terms: TermsPage,
  'service-category': ServiceCategoryPage,
  'sub-service': SubServicePage,
  article: ArticlePage,
}

/** The props Decap gives a preview template, with the language shown (`locale`, not in its types). */
type Props = PreviewTemplateComponentProps & { locale?: string }

/**
 * What the pane shows: the last page made (which of the entry's pages, its component, context
 * and frame, and the entry's pages), and the mistakes of the entry as it is now.
 */
type Shown = {
  page?: EntryPage
  pages?: EntryPage[]
  Page?: ComponentType
  pageContext?: PageContext
  frame?: Frame
  errors: string[]
}

/**
 * The content a page's components read as they render, besides their data: the frame of
 * lib/settings.ts (`siteSettings()`, read by islands/Island.tsx for its labels and by the contact
 * page for its addresses), from the content global of lib/contentGlobal.ts, as in a build. The
 * pane holds the frame alone: a component that reads more of the content as it renders fails
 * naming what it read, rather than drawing from `undefined`.
 */
function frameAsContent(frame: Frame): SiteContent {
  return new Proxy(frame, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target) return Reflect.get(target, key)
      throw new Error(`The preview holds the frame of the content (${Object.keys(target).join(', ')}), not its \`${key}\``)
    },
  }) as SiteContent
}

function Mistakes({ errors }: { errors: string[] }) {
  // Inline styles: the site's stylesheet should gain no class for the editor's sake.
  return (
    <div
      role="alert"
      data-preview-errors=""
      style={{ background: '#fef2f2', borderBottom: '1px solid #fca5a5', color: '#7f1d1d', padding: '0.75rem 1rem', fontSize: '0.875rem' }}
    >
      <p style={{ fontWeight: 600 }}>The page cannot be previewed as it is now:</p>
      <ul style={{ marginTop: '0.25rem', whiteSpace: 'pre-wrap', fontFamily: 'ui-monospace, monospace' }}>
        {errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
    </div>
  )
}

/** Names one of an entry's pages among the others (the params of its route, in the route's order). */
function pageKey({ kind, params }: EntryPage): string {
  return `${kind} ${JSON.stringify(params)}`
}

/**
 * The choice of the entry's page to show, where it makes more than one: a service category makes
 * its own page and one per sub-service. Its own page is shown first; the author picks the
 * sub-service whose fields they are editing, and the choice holds while they type (and in the
 * other language, whose sub-services have the same slugs).
 */
function EntryPages({ pages, shown, choose }: { pages: EntryPage[]; shown?: EntryPage; choose: (page: EntryPage) => void }) {
  // Inline styles, as the mistakes': the site's stylesheet gains no class for the editor's sake.
  const button = { border: '1px solid #cbd5e1', borderRadius: '999px', padding: '0.125rem 0.625rem', background: '#fff' }
  return (
    <nav
      aria-label="Pages this entry makes"
      data-preview-pages=""
      style={{ display: 'flex', flexWrap: 'wrap', gap: '0.375rem', padding: '0.5rem 1rem', background: '#f1f5f9', borderBottom: '1px solid #cbd5e1', fontSize: '0.8125rem' }}
    >
      {pages.map((page) => {
        const current = shown !== undefined && pageKey(page) === pageKey(shown)
        return (
          <button
            key={pageKey(page)}
            type="button"
            aria-pressed={current}
            onClick={() => choose(page)}
            style={current ? { ...button, background: '#0f172a', borderColor: '#0f172a', color: '#fff' } : button}
          >
            {page.title}
          </button>
        )
      })}
    </nav>
  )
}

/** The preview of an entry: its page as the site renders it. */
function PagePreview({ entry, collection, document, locale }: Props) {
  const [wanted, setWanted] = useState<EntryPage>()
  const request = JSON.stringify({
    collection: collection.get('name'),
    slug: entry.get('slug') ?? '',
    locale,
    data: entry.get('data')?.toJS() ?? {},
    page: wanted && { kind: wanted.kind, params: wanted.params },
  } satisfies PreviewRequest)
  const [shown, setShown] = useState<Shown>({ errors: [] })
  const first = shown.pageContext === undefined
  useEffect(() => {
    const controller = new AbortController()
    const make = async () => {
      try {
        const response = await fetch(PREVIEW_PATH, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: request,
          signal: controller.signal,
        })
        const answer = (await response.json()) as PreviewAnswer
        // An answer for an entry that has changed since is not shown.
        if (controller.signal.aborted) return
        setShown((before) => {
          if ('errors' in answer) return { ...before, errors: answer.errors }
          const { page, pages, frame } = answer
          const Page = PAGES[page.kind]
          if (!Page) return { errors: [`The preview does not draw the ${page.kind} page yet: see the page itself in the site`] }
          return { page, pages, Page, pageContext: answer.pageContext as unknown as PageContext, frame, errors: [] }
        })
      } catch (error) {
        if (!controller.signal.aborted) setShown((before) => ({ ...before, errors: [String(error)] }))
      }
    }
    // The first page at once; then one per pause in the typing.
    const timer = setTimeout(make, first ? 0 : DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
    // `first` only picks the delay: a new page is made when the entry changes.
  }, [request])
  useEffect(() => {
    if (locale) document.documentElement.lang = locale
  }, [document, locale])

  const { page, pages, Page, pageContext, frame, errors } = shown
  const banner = (pageContext?.data as PageDataBase | undefined)?.banner
  // Set as the page renders, not when its answer came: the global is the window's, and the page
  // must read its own language's frame. Nothing else in the editor's window renders the site.
  if (frame) setContent(frameAsContent(frame))
  // The frame of pages/+Layout.tsx around the page, without the header and footer it renders
  // once per build from the whole content.
  return (
    <div className="flex min-h-dvh flex-col">
      {pages && pages.length > 1 && <EntryPages pages={pages} shown={page} choose={setWanted} />}
      {errors.length > 0 && <Mistakes errors={errors} />}
      {Page && pageContext && (
        <VikeReactProviderPageContext pageContext={pageContext}>
          <main id="main" tabIndex={-1} className="flex-1 outline-none">
            {banner && <PublishingBanner text={banner} />}
            <Page />
          </main>
        </VikeReactProviderPageContext>
      )}
    </div>
  )
}

/** The editor's configuration, as far as the preview reads it. */
type Config = { backend: { name: string }; collections: { name: string; files?: { name: string }[] }[] }

/**
 * Makes the editor preview articles, pages and service categories with the site's pages and
 * stylesheet. Decap names a folder collection's template by the collection, a file entry's by
 * the file's own name (`about`, `cloud-services`).
 */
export function registerPreview(cms: CMS, config: Config) {
  // The page is made by `sitegen dev` (`POST /admin/preview`, the backend `proxy`); the live
  // site's editor has no server to make it and keeps Decap's own preview of the fields.
  if (config.backend.name !== 'proxy') return
  cms.registerPreviewStyle(siteCss, { raw: true })
  for (const collection of config.collections) {
    if (!(PREVIEWED as readonly string[]).includes(collection.name)) continue
    const names = collection.files?.map((file) => file.name) ?? [collection.name]
    for (const name of names) cms.registerPreviewTemplate(name, PagePreview)
  }
}
