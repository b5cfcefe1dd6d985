// What each kind of page receives as its `+data`: always `{ meta, noindex, page, ... }`, where
// `meta` is the route's title and description (read by +title.ts and +description.ts),
// `noindex` whether search engines should skip it (+Head.tsx), `page` the page's own content
// and the rest whatever else it renders (a form, the contact endpoint, cards).
//
// The table is exhaustive over the generated page kinds: a new kind of route in the Rust model
// fails the type check here until the site says what its page receives.
import type { PageContextServer } from 'vike/types'
import type { Endpoint } from '../components/forms/sendForm'
import type { SubServiceTeaser } from '../components/services/SubServiceGrid'
import type { Meta } from '../schema/Meta'
import type { Settings } from '../schema/Settings'
import { type PageKind, type RouteOf, loadContent, pathOf, routeAt, routeByPath } from './content.server'
import type { PageDataBase } from './pageMeta'
import { graphOf } from './structuredData.server'
import {
  allArticles,
  articleBody,
  articleBySlug,
  blogArticles,
  cardOf,
  categoryArticles,
  featuredArticles,
  filterChoices,
  LATEST_COUNT,
  latestArticles,
  relatedArticles,
} from './articles.server'

/** A page's content without its `meta`, which travels once, as `data.meta`. */
/**
 * The letters the language of `settings` folds in its search (`õo äa öo`: õ typed as o, ...),
 * for the search box's `data-fold`; undefined when it folds none.
 */
function searchFold(settings: Settings): string | undefined {
  const folds = settings.languages.find((l) => l.tag === settings.language)?.search_folds ?? {}
  const pairs = Object.entries(folds).map(([from, to]) => `${from}${to}`)
  return pairs.length > 0 ? pairs.join(' ') : undefined
}

/**
 * Where the page's forms are sent: the contact service, and the page's language when it is not
 * the site's default (the service redirects to that language's pages and writes in it).
 */
function endpointOf(settings: Settings): Endpoint {
  const language = settings.language === settings.languages[0]?.tag ? undefined : settings.language
  return language ? { url: settings.contact_endpoint, language } : { url: settings.contact_endpoint }
}

function withoutMeta<T extends { meta: Meta }>({ meta: _, ...page }: T): Omit<T, 'meta'> {
  return page
}

function category(slug: string) {
  const found = loadContent().services.find((c) => c.slug === slug)
  if (!found) throw new Error(`The content has no service category ${slug}`)
  return found
}

const pageData = {
  home: () => {
    const { pages, forms, settings } = loadContent()
    const language = settings.languages.find((l) => l.tag === settings.language)
    // The dialling code before the form's phone field: site.yaml's phone_prefix, else country_code.
    const phonePrefix = language?.phone_prefix ?? language?.country_code ?? null
    return { page: withoutMeta(pages.home), enquiry: forms.enquiry, phonePrefix, endpoint: endpointOf(settings) }
  },
  about: () => ({ page: withoutMeta(loadContent().pages.about) }),
  services: () => {
    const { pages, services } = loadContent()
    return {
      page: withoutMeta(pages.services),
      // Only what the cards show of each category; the rest belongs to the category pages.
      categories: services.map((c) => ({
        name: c.name,
        summary: c.summary,
        icon: c.icon,
        href: pathOf('service-category', { category: c.slug }),
        links: c.sub_services.map((sub) => ({
          label: sub.name,
          href: pathOf('sub-service', { category: c.slug, service: sub.slug }),
        })),
      })),
    }
  },
  industries: () => ({ page: withoutMeta(loadContent().pages.industries) }),
  solutions: () => ({ page: withoutMeta(loadContent().pages.solutions) }),
  insights: () => {
    const { pages, forms, settings } = loadContent()
    const { article: _, ...page } = withoutMeta(pages.insights)
    const { consent, messages } = forms.newsletter
    return {
      page,
      newsletterForm: { consent, messages },
      endpoint: endpointOf(settings),
      featured: featuredArticles().map(cardOf),
      latest: latestArticles().map(cardOf),
      latestCount: LATEST_COUNT,
      filter: filterChoices(),
      insightsHref: pathOf('insights', {}),
      searchIndex: loadContent().search_index_path,
      searchFold: searchFold(settings),
    }
  },
  'case-studies': () => ({ page: withoutMeta(loadContent().pages.case_studies) }),
  blog: () => ({ page: withoutMeta(loadContent().pages.blog), articles: blogArticles().map(cardOf) }),
  contact: () => {
    const { pages, forms, countries, settings } = loadContent()
    const countryCode = settings.languages.find((l) => l.tag === settings.language)?.country_code
    return { page: withoutMeta(pages.contact), form: forms.contact, countries, countryCode, endpoint: endpointOf(settings) }
  },
  privacy: () => ({ page: withoutMeta(loadContent().pages.privacy) }),
  terms: () => ({ page: withoutMeta(loadContent().pages.terms) }),
  'contact-sent': () => ({ page: withoutMeta(loadContent().forms.sent) }),
  'contact-error': () => ({ page: withoutMeta(loadContent().forms.error) }),
  newsletter: ({ params }: RouteOf<'newsletter'>) => {
    const found = loadContent().forms.newsletter.pages[params.page]
    // sitegen validate ensures every page of the contract has its words.
    if (!found) throw new Error(`The content has no newsletter page ${params.page}`)
    return { page: withoutMeta(found) }
  },
  'service-category': ({ params }: RouteOf<'service-category'>) => {
    const { hero, services_intro, case_studies, sub_services } = category(params.category)
    // Sub-services appear here as teasers only; their full content belongs to their own pages.
    const teasers: SubServiceTeaser[] = sub_services.map(({ slug, name, icon, hero }) => ({
      slug,
      name,
      icon,
      href: pathOf('sub-service', { category: params.category, service: slug }),
      lead: hero.lead,
    }))
    return { page: { hero, services_intro, case_studies }, sub_services: teasers }
  },
  article: ({ params }: RouteOf<'article'>) => {
    const { pages } = loadContent()
    const article = articleBySlug(params.slug)
    if (!article) throw new Error(`The content has no article ${params.slug}`)
    const { html, toc } = articleBody(article)
    const card = cardOf(article)
    return {
      page: { ...card, html, toc, words: pages.insights.article },
      related: relatedArticles(article).map(cardOf),
      categoryHref: pathOf('insights-category', { category: article.category, page: 1 }),
      og: { type: 'article' },
    }
  },
  'insights-category': ({ params, pager }: RouteOf<'insights-category'>) => {
    const { pages } = loadContent()
    const found = category(params.category)
    const words = pages.insights.article
    const { per_page, previous_label, next_label } = pages.insights.pagination
    const listed = categoryArticles(params.category)
    const at = params.page
    // How many pages there are and the label come with the route, from sitegen.
    const count = pager?.pages ?? 1
    const link = (page: number) =>
      page >= 1 && page <= count ? pathOf('insights-category', { category: params.category, page }) : null
    return {
      page: {
        hero: { eyebrow: words.category_eyebrow, title: found.name, highlight: null, lead: found.summary, actions: [] },
        list_title: words.category_list_title,
        all_label: words.all_insights_label,
      },
      articles: listed.slice((at - 1) * per_page, at * per_page).map(cardOf),
      // Only when there is more than one page.
      pager:
        pager && count > 1
          ? {
              label: pager.label,
              previous: link(at - 1),
              next: link(at + 1),
              previousLabel: previous_label,
              nextLabel: next_label,
            }
          : null,
      filter: filterChoices(),
      current: params.category,
      insightsHref: pathOf('insights', {}),
    }
  },
  'sub-service': ({ params }: RouteOf<'sub-service'>) => {
    const service = category(params.category).sub_services.find((s) => s.slug === params.service)
    if (!service) throw new Error(`The content has no sub-service ${params.category}/${params.service}`)
    const { hero, blurb, tiles } = service
    return { page: { hero, blurb, tiles } }
  },
} satisfies { [K in PageKind]: (route: RouteOf<K>) => Omit<PageDataBase, 'meta' | 'noindex' | 'card' | 'jsonLd' | 'banner'> }

/** The `+data` of a page of kind `K`. */
export type PageData<K extends PageKind> = Pick<PageDataBase, 'meta' | 'noindex' | 'card' | 'jsonLd' | 'banner'> & ReturnType<(typeof pageData)[K]>

/** The `+data` of the page of kind `kind` published as `route`. */
function dataOf<K extends PageKind>(kind: K, route: RouteOf<K>): PageData<K> {
  // `pageData[kind]` takes this kind's route; TypeScript cannot follow `K` through the lookup.
  const build = pageData[kind] as unknown as (route: RouteOf<K>) => ReturnType<(typeof pageData)[K]>
  return {
    meta: { title: route.title, description: route.description },
    card: loadContent().cards[route.path],
    // The pages a form post ends on are reachable by anyone but are not for search results, and
    // no page of a build that shows drafts or scheduled pages is.
    noindex: !route.in_sitemap || loadContent().settings.noindex,
    jsonLd: graphOf(route),
    ...(route.banner === undefined ? {} : { banner: route.banner }),
    ...build(route),
  }
}

/**
 * The `+data` hook of the pages of kind `kind`: finds the route being rendered in the model (a
 * path the model does not publish is a 404) and returns its page's data.
 */
export function dataHook<K extends PageKind>(kind: K): (pageContext: PageContextServer) => PageData<K> {
  return (pageContext) => dataOf(kind, routeAt(kind, pageContext.urlPathname))
}

/** The `+data` of the not-found page (404.html): the not-found copy, whatever path was missed. */
export function notFoundData() {
  const notFound = loadContent().settings.not_found
  const noindex = loadContent().settings.noindex
  return { meta: notFound.meta, noindex, page: withoutMeta(notFound) } satisfies PageDataBase
}

/**
 * The data the page at `path` renders, as its `+data` hook returns it: the published route's, or
 * the not-found page's for a path the model does not publish.
 */
export function dataAtPath(path: string): PageDataBase {
  const route = routeByPath(path)
  return route ? dataOf(route.kind, route as RouteOf<typeof route.kind>) : notFoundData()
}
