// The schema.org graph of each page: one `<script type="application/ld+json">` holding an
// `@graph` whose nodes link by `@id` (the shape Yoast emits), built from the same content fields
// the page shows, in the page's language.
//
// Every node is typed against schema-dts, so `tsc` refuses a type or a property schema.org does
// not have. Which properties each node carries follows Google's structured-data guides
// (https://developers.google.com/search/docs/appearance/structured-data):
//
// | node                  | Google requires                | Google recommends, present here          |
// | --------------------- | ------------------------------ | ---------------------------------------- |
// | Organization          | (none)                         | name, legalName, url, logo, email,       |
// |                       |                                | telephone                                |
// | ProfessionalService   | name, address                  | url, telephone, geo,                     |
// | (a LocalBusiness)     |                                | openingHoursSpecification                |
// | BreadcrumbList        | itemListElement: ListItem with | (none)                                   |
// |                       | position, name, item (but the  |                                          |
// |                       | last)                          |                                          |
// | Article               | (none)                         | headline, image, datePublished,          |
// |                       |                                | dateModified, author (name, url)         |
// | FAQPage               | mainEntity: Question with name | (none)                                   |
// |                       | and acceptedAnswer.text        |                                          |
//
// WebSite, WebPage, Service and Person have no rich result of their own: they carry what joins
// the graph (url, name, inLanguage, isPartOf, provider, worksFor). The only `@id`s referenced
// are of nodes in the same graph, and every URL is a published page or asset: sitegen's check
// of the output (`sitegen check`) and site/tests-static/structured-data.spec.ts hold to both.
import type {
  Article,
  BreadcrumbList,
  Graph,
  IdReference,
  ListItem,
  Organization,
  Person,
  ProfessionalService,
  Service,
  Thing,
  WebPage,
  WebSite,
} from 'schema-dts'
import type { RouteInfo } from '../schema/RouteInfo'
import type { Settings } from '../schema/Settings'
import { authorOf } from './articles.server'
import { type PageKind, type RouteOf, loadContent, pathOf } from './content.server'
import { canonicalUrl } from './paths'

/** The schema.org type of each kind of page: a listing is a `CollectionPage`. */
const PAGE_TYPE = {
  home: 'FAQPage',
  about: 'AboutPage',
  services: 'CollectionPage',
  industries: 'WebPage',
  solutions: 'WebPage',
  insights: 'CollectionPage',
  'case-studies': 'CollectionPage',
  blog: 'CollectionPage',
  contact: 'ContactPage',
  privacy: 'WebPage',
  terms: 'WebPage',
  'contact-sent': 'WebPage',
  'contact-error': 'WebPage',
  newsletter: 'WebPage',
  'service-category': 'WebPage',
  'sub-service': 'WebPage',
  article: 'WebPage',
  'insights-category': 'CollectionPage',
} as const satisfies Record<PageKind, Exclude<WebPage, string>['@type']>

/** A reference to the node `id` of the same graph. */
function ref(id: string): IdReference {
  return { '@id': id }
}

/** The absolute URL of the page at `path`, as its canonical link writes it (`/about/`). */
function absolute(settings: Settings, path: string): string {
  return canonicalUrl(settings.base_url, path)
}

/** The absolute URL of the file `src` of the site (a picture: `/favicon.svg`). */
function assetUrl(settings: Settings, src: string): string {
  return new URL(src, `${settings.base_url}/`).href
}

/** The `@id`s of the nodes every page of a language shares. */
function sharedIds(settings: Settings) {
  const home = absolute(settings, pathOf('home', {}))
  return {
    organization: `${absolute(settings, '/')}#organization`,
    office: `${absolute(settings, '/')}#office`,
    website: `${home}#website`,
  }
}

/** The company, once per graph; every page names it as publisher or provider. */
function organization(settings: Settings): Organization {
  const ids = sharedIds(settings)
  const { brand, contact } = settings
  return {
    '@type': 'Organization',
    '@id': ids.organization,
    name: brand.name,
    legalName: brand.legal_name,
    // One node for every language: the site's root, as its `@id`.
    url: absolute(settings, '/'),
    logo: assetUrl(settings, '/favicon.svg'),
    email: contact.email,
    telephone: contact.phone,
    location: ref(ids.office),
  }
}

/**
 * The office as a local business, for local results: its address, map point, phone and hours
 * from `site.yaml`'s `contact`. The address is the lines the contact page shows, as one text:
 * the model keeps them as lines, not as street, postcode and town.
 */
function office(settings: Settings): ProfessionalService {
  const ids = sharedIds(settings)
  const { brand, contact } = settings
  return {
    '@type': 'ProfessionalService',
    '@id': ids.office,
    name: `${brand.name} ${contact.office.name}`,
    parentOrganization: ref(ids.organization),
    url: absolute(settings, pathOf('contact', {})),
    address: contact.office.lines.join(', '),
    telephone: contact.phone,
    email: contact.email,
    ...(contact.geo && {
      geo: { '@type': 'GeoCoordinates', latitude: contact.geo.latitude, longitude: contact.geo.longitude },
    }),
    ...(contact.opening_hours.length > 0 && {
      openingHoursSpecification: contact.opening_hours.map(({ days, opens, closes }) => ({
        '@type': 'OpeningHoursSpecification' as const,
        dayOfWeek: days.map((day) => `https://schema.org/${day}` as const),
        opens,
        closes,
      })),
    }),
  }
}

/** The site in the page's language. */
function website(settings: Settings): WebSite {
  const ids = sharedIds(settings)
  return {
    '@type': 'WebSite',
    '@id': ids.website,
    url: absolute(settings, pathOf('home', {})),
    name: settings.brand.name,
    inLanguage: settings.language,
    publisher: ref(ids.organization),
  }
}

/**
 * The label the navigation gives the page at `path` (`About Us`, `Teenused`): the header's links
 * first, then the mobile menu's and the footer's, which name the pages the header leaves out.
 */
function navLabel(settings: Settings, path: string): string | undefined {
  const { nav, footer } = settings
  const links = [
    ...nav.links,
    { label: nav.services.label, href: nav.services.view_all.href },
    ...nav.mobile_links,
    ...footer.columns.flatMap((column) => column.links),
  ]
  return links.find((link) => link.href === path)?.label
}

/** One step of a breadcrumb: a page's name and path. */
type Crumb = { name: string; path: string }

/** A top-level page as a step, named as the navigation names it. */
function navCrumb(settings: Settings, path: string): Crumb {
  const name = navLabel(settings, path)
  if (name === undefined) throw new Error(`No navigation link names ${path}, for its breadcrumb`)
  return { name, path }
}

/**
 * The path from the home page to `route`, as the navigation leads there: Home > Services >
 * Cloud services > DevOps. None for the home page, nor for the pages a form post ends on, which
 * no link leads to.
 */
function crumbsOf(settings: Settings, route: RouteInfo): Crumb[] | undefined {
  const { services, articles } = loadContent()
  const home = navCrumb(settings, pathOf('home', {}))
  const top = (kind: 'services' | 'insights') => navCrumb(settings, pathOf(kind, {}))
  const categoryName = (slug: string) => services.find((c) => c.slug === slug)?.name ?? slug
  switch (route.kind) {
    case 'home':
    case 'contact-sent':
    case 'contact-error':
    case 'newsletter':
      return undefined
    case 'service-category':
      return [home, top('services'), { name: categoryName(route.params.category), path: route.path }]
    case 'sub-service': {
      const { category, service } = route.params
      const sub = services.find((c) => c.slug === category)?.sub_services.find((s) => s.slug === service)
      return [
        home,
        top('services'),
        { name: categoryName(category), path: pathOf('service-category', { category }) },
        { name: sub?.name ?? service, path: route.path },
      ]
    }
    case 'article': {
      const title = articles.find((a) => a.slug === route.params.slug)?.title ?? route.params.slug
      return [home, top('insights'), { name: title, path: route.path }]
    }
    case 'insights-category':
      return [home, top('insights'), { name: categoryName(route.params.category), path: route.path }]
    default:
      return [home, navCrumb(settings, route.path)]
  }
}

function breadcrumb(settings: Settings, id: string, crumbs: Crumb[]): BreadcrumbList {
  return {
    '@type': 'BreadcrumbList',
    '@id': id,
    itemListElement: crumbs.map(
      ({ name, path }, i): ListItem => ({
        '@type': 'ListItem',
        position: i + 1,
        name,
        // Google takes the last step to be the page itself.
        ...(i < crumbs.length - 1 && { item: absolute(settings, path) }),
      }),
    ),
  }
}

/** The nodes that describe what the page is about: a service, an article and its author. */
function mainEntities(settings: Settings, route: RouteInfo, url: string, pageId: string): Thing[] {
  const { services } = loadContent()
  const ids = sharedIds(settings)
  switch (route.kind) {
    case 'service-category': {
      const category = services.find((c) => c.slug === route.params.category)
      if (!category) return []
      return [serviceNode(ids.organization, url, category.name, category.summary)]
    }
    case 'sub-service': {
      const category = services.find((c) => c.slug === route.params.category)
      const sub = category?.sub_services.find((s) => s.slug === route.params.service)
      if (!category || !sub) return []
      const node = serviceNode(ids.organization, url, sub.name, sub.hero.lead)
      return [{ ...node, serviceType: category.name }]
    }
    case 'article':
      return articleNodes(settings, route, url, pageId)
    default:
      return []
  }
}

function serviceNode(provider: string, url: string, name: string, description: string): Service {
  return {
    '@type': 'Service',
    '@id': `${url}#service`,
    name,
    description,
    url,
    provider: ref(provider),
  }
}

/** The article, its author, and its versions in the site's other languages. */
function articleNodes(settings: Settings, route: RouteOf<'article'>, url: string, pageId: string): Thing[] {
  const { articles, cards } = loadContent()
  const article = articles.find((a) => a.slug === route.params.slug)
  if (!article) return []
  const ids = sharedIds(settings)
  const author = authorOf(article)
  const personId = `${absolute(settings, '/')}#person-${article.author}`
  const card = cards[route.path]
  // The site's first language is the one others translate from.
  const source = settings.languages[0]?.tag
  const others = (route.versions?.languages ?? []).filter((v) => !v.current && v.path !== undefined)
  const version = (tag: string, path: string): Article => ({
    '@type': 'Article',
    url: absolute(settings, path),
    inLanguage: tag,
  })
  const translations =
    settings.language === source
      ? { workTranslation: others.map((v) => version(v.tag, v.path as string)) }
      : {
          translationOfWork: others
            .filter((v) => v.tag === source)
            .map((v) => version(v.tag, v.path as string)),
        }
  const person: Person = {
    '@type': 'Person',
    '@id': personId,
    name: author.name,
    jobTitle: author.role,
    worksFor: ref(ids.organization),
  }
  const node: Article = {
    '@type': 'Article',
    '@id': `${url}#article`,
    headline: article.title,
    description: article.excerpt,
    ...(card && { image: assetUrl(settings, card.src) }),
    datePublished: article.date,
    dateModified: article.date,
    author: ref(personId),
    publisher: ref(ids.organization),
    mainEntityOfPage: ref(pageId),
    isPartOf: ref(ids.website),
    articleSection: loadContent().services.find((c) => c.slug === article.category)?.name ?? article.category,
    inLanguage: settings.language,
    ...(others.length > 0 && translations),
  }
  return [node, person]
}

/** The page's own node: its name, description, language and place in the site. */
function pageNode(settings: Settings, route: RouteInfo, url: string, pageId: string, crumbsId?: string): WebPage {
  const ids = sharedIds(settings)
  const type = PAGE_TYPE[route.kind]
  const common = {
    '@id': pageId,
    url,
    name: route.title,
    description: route.description,
    inLanguage: settings.language,
    isPartOf: ref(ids.website),
    about: ref(ids.organization),
    ...(crumbsId && { breadcrumb: ref(crumbsId) }),
  }
  switch (route.kind) {
    case 'home': {
      const { faq } = loadContent().pages.home
      return {
        ...common,
        '@type': 'FAQPage',
        mainEntity: faq.items.map(({ question, answer }) => ({
          '@type': 'Question' as const,
          name: question,
          acceptedAnswer: { '@type': 'Answer' as const, text: answer },
        })),
      }
    }
    case 'service-category':
    case 'sub-service':
      return { ...common, '@type': 'WebPage', mainEntity: ref(`${url}#service`) }
    case 'article':
      return { ...common, '@type': 'WebPage', mainEntity: ref(`${url}#article`) }
    default:
      return { ...common, '@type': type }
  }
}

/** The schema.org graph of the published page `route`, in the language of the content. */
export function graphOf(route: RouteInfo): Graph {
  const { settings } = loadContent()
  const url = route.versions?.canonical ?? absolute(settings, route.path)
  const pageId = `${url}#webpage`
  const crumbs = crumbsOf(settings, route)
  const crumbsId = crumbs && `${url}#breadcrumb`
  return {
    '@context': 'https://schema.org',
    '@graph': [
      organization(settings),
      office(settings),
      website(settings),
      pageNode(settings, route, url, pageId, crumbsId),
      ...(crumbs && crumbsId ? [breadcrumb(settings, crumbsId, crumbs)] : []),
      ...mainEntities(settings, route, url, pageId),
    ],
  }
}
