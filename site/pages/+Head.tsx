import { useData } from 'vike-react/useData'
import { usePageContext } from 'vike-react/usePageContext'
import type { PageDataBase } from '../lib/pageMeta'
import { routeByPath } from '../lib/content.server'
import { canonicalUrl } from '../lib/paths'
import { feedPath, siteSettings } from '../lib/settings'

/**
 * Speculation rules (https://developer.chrome.com/docs/web-platform/prerender-pages): the
 * browser prerenders a same-origin page once the visitor shows the intent to open it (hovering
 * a link for a moment, or pressing it), so the full page load that follows is instant. Inline,
 * as the CSP's `'inline-speculation-rules'` allows; browsers without the API ignore it.
 */
const SPECULATION_RULES = JSON.stringify({
  prerender: [{ source: 'document', where: { href_matches: '/*' }, eagerness: 'moderate' }],
})

// Tags shared by every page's <head> (vike-react writes og:title and og:description from the
// title and description). Title, description, lang and favicon are vike-react
// settings (+title.ts, +description.ts, +lang.ts, +config.ts); whether search engines skip the
// page comes with its data (lib/pageData.server.ts).
export default function Head() {
  const { urlPathname, is404 } = usePageContext()
  const { noindex, og, card, jsonLd } = useData<PageDataBase>()
  const settings = siteSettings()
  // On a site of several languages, sitegen's table of each page's versions gives the
  // canonical URL and the hreflang set (sitegen/src/content/i18n.rs).
  const versions = is404 ? undefined : routeByPath(urlPathname)?.versions
  const url = versions?.canonical ?? canonicalUrl(settings.base_url, urlPathname)
  return (
    <>
      {/* The not-found page is served at whatever path was missing: it has no canonical URL. */}
      {!is404 && <link rel="canonical" href={url} />}
      {versions?.hreflang.map(({ hreflang, href }) => (
        <link key={hreflang} rel="alternate" hrefLang={hreflang} href={href} />
      ))}
      <link rel="alternate" type="application/atom+xml" title={settings.brand.name} href={feedPath()} />
      <meta property="og:site_name" content={settings.brand.name} />
      <meta property="og:type" content={og?.type ?? 'website'} />
      {!is404 && <meta property="og:url" content={url} />}
      {card && (
        <>
          <meta property="og:image" content={new URL(card.src, `${settings.base_url}/`).href} />
          <meta property="og:image:type" content={card.type} />
          <meta property="og:image:width" content={String(card.width)} />
          <meta property="og:image:height" content={String(card.height)} />
          <meta property="og:image:alt" content={card.alt} />
          <meta name="twitter:card" content="summary_large_image" />
        </>
      )}
      {/* Data, not a script: the CSP does not apply to a block the browser never executes. */}
      {jsonLd && (
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, '\\u003c') }} />
      )}
      <meta name="theme-color" content="#ffffff" />
      {noindex && <meta name="robots" content="noindex" />}
      <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
    </>
  )
}
