import type { Graph } from 'schema-dts'
import type { Meta } from '../schema/Meta'
import type { SocialCard } from '../schema/SocialCard'

/**
 * The shape of every page's `+data`: `{ meta, noindex, page, ... }` (lib/pageData.server.ts
 * builds it; the not-found page's carries the not-found copy). `meta` is the page's title and
 * description (+title.ts, +description.ts); `noindex` is set on the pages the model keeps out of
 * the sitemap (+Head.tsx).
 */
export type PageDataBase = {
  meta: Meta
  noindex: boolean
  page: unknown
  /** Open Graph type, for pages that are more than a `website` (articles). */
  og?: { type: 'article' }
  /**
   * The banner of a page shown though not published ("Draft", "Scheduled for ..."), in its
   * language: sitegen writes it on the routes of a preview build (RouteInfo.banner).
   */
  banner?: string
  /** The page's social card (`og:image`), drawn by sitegen; the not-found page has none. */
  card?: SocialCard | undefined
  /**
   * The page's schema.org graph (lib/structuredData.server.ts), written as its one
   * `<script type="application/ld+json">`; the not-found page has none.
   */
  jsonLd?: Graph
}
