import { expect, test } from '@playwright/test'
import type { RouteInfo } from '../schema/RouteInfo'
import type { SiteContent } from '../schema/SiteContent'
import { content, html } from './support/built'
import { vocabulary } from './support/schemaVocabulary'

// Every published page's structured data (lib/structuredData.server.ts), as the build wrote it:
// one JSON-LD graph, every type and property known to schema.org, every reference resolved,
// Google's required properties present, and each language's pages described in that language.

type Node = Record<string, unknown>

/** The text of each JSON-LD block of the page at `route`. */
function blocksOf(route: string): string[] {
  const page = html(route)
  return page('script[type="application/ld+json"]')
    .toArray()
    .map((script) => page(script).text())
}

/** The one graph of the page at `route`. */
function graphOf(route: string): Node[] {
  const blocks = blocksOf(route)
  expect(blocks, `${route}: one JSON-LD block`).toHaveLength(1)
  const document = JSON.parse(blocks[0] ?? '') as Node
  expect(document['@context'], route).toBe('https://schema.org')
  expect(Array.isArray(document['@graph']), `${route}: an @graph`).toBe(true)
  return document['@graph'] as Node[]
}

/** Every object of `value` that has a `@type`, nested ones included. */
function typedNodes(value: unknown, into: Node[] = []): Node[] {
  if (Array.isArray(value)) for (const item of value) typedNodes(item, into)
  else if (value && typeof value === 'object') {
    const node = value as Node
    if ('@type' in node) into.push(node)
    for (const field of Object.values(node)) typedNodes(field, into)
  }
  return into
}

/** The `@id` of every object that is only a reference, and of every node that says more. */
function ids(value: unknown, found = { defined: new Set<string>(), referenced: new Set<string>() }) {
  if (Array.isArray(value)) for (const item of value) ids(item, found)
  else if (value && typeof value === 'object') {
    const node = value as Node
    const id = node['@id']
    if (typeof id === 'string') (Object.keys(node).length === 1 ? found.referenced : found.defined).add(id)
    for (const field of Object.values(node)) ids(field, found)
  }
  return found
}

/** The types of the page's own node (a `WebPage` or one of its kinds). */
const PAGE_TYPES = ['WebPage', 'AboutPage', 'ContactPage', 'CollectionPage', 'FAQPage']

const ofType = (graph: Node[], type: string) => graph.filter((node) => node['@type'] === type)

/** Every language's content with its routes: the default's, then each translation's. */
const languages: SiteContent[] = [content, ...(content.translations ?? [])]
const published = (site: SiteContent): RouteInfo[] => site.routes.filter((route) => route.in_sitemap)

for (const site of languages) {
  const tag = site.settings.language
  test(`${tag}: every page has one JSON-LD graph of known types and properties whose references resolve`, () => {
    for (const route of site.routes) {
      const graph = graphOf(route.path)
      for (const node of typedNodes(graph)) {
        const type = String(node['@type'])
        const properties = vocabulary.get(type)
        expect(properties, `${route.path}: ${type} is a schema.org type`).toBeDefined()
        for (const key of Object.keys(node).filter((k) => !k.startsWith('@'))) {
          expect(properties?.has(key), `${route.path}: ${type}.${key} is a schema.org property`).toBe(true)
        }
      }
      const { defined, referenced } = ids(graph)
      for (const id of referenced) expect(defined.has(id), `${route.path}: ${id} is a node of the graph`).toBe(true)
    }
  })

  test(`${tag}: Google's required properties are present and the graph speaks the page's language`, () => {
    for (const route of published(site)) {
      const graph = graphOf(route.path)
      const [organization] = ofType(graph, 'Organization')
      expect(organization?.name, route.path).toBe(site.settings.brand.name)
      expect(organization?.url, route.path).toBeTruthy()
      const [office] = ofType(graph, 'ProfessionalService')
      expect(office?.address, route.path).toBeTruthy()
      expect(office?.name, route.path).toContain(site.settings.contact.office.name)

      const page = graph.find((node) => PAGE_TYPES.includes(String(node['@type'])))
      expect(page, `${route.path}: a page node`).toBeDefined()
      expect(page?.name, route.path).toBe(route.title)
      expect(page?.inLanguage, route.path).toBe(tag)
      for (const node of typedNodes(graph).filter((n) => 'inLanguage' in n && n['@type'] !== 'Article')) {
        expect(node.inLanguage, `${route.path}: ${String(node['@type'])}`).toBe(tag)
      }

      const crumbs = ofType(graph, 'BreadcrumbList')
      if (route.kind === 'home') {
        expect(crumbs, 'the home page has no breadcrumb').toHaveLength(0)
        const questions = (page?.mainEntity ?? []) as Node[]
        expect(page?.['@type']).toBe('FAQPage')
        expect(questions.map((q) => q.name)).toEqual(site.pages.home.faq.items.map((item) => item.question))
        for (const question of questions) expect((question.acceptedAnswer as Node | undefined)?.text).toBeTruthy()
        continue
      }
      expect(crumbs, `${route.path}: one BreadcrumbList`).toHaveLength(1)
      const items = (crumbs[0]?.itemListElement ?? []) as Node[]
      expect(items.length, route.path).toBeGreaterThanOrEqual(2)
      items.forEach((item, i) => {
        expect(item.position, route.path).toBe(i + 1)
        expect(typeof item.name === 'string' && item.name.length > 0, route.path).toBe(true)
        if (i < items.length - 1) expect(item.item, route.path).toBeTruthy()
      })
      // The first step is the home page as this language's navigation names it.
      const homeLink = site.settings.nav.mobile_links.find((l) => l.href === site.routes.find((r) => r.kind === 'home')?.path)
      expect(items[0]?.name, route.path).toBe(homeLink?.label)

      if (route.kind === 'article') {
        const [article] = ofType(graph, 'Article').filter((node) => '@id' in node)
        const source = site.articles.find((a) => a.slug === route.params.slug)
        expect(article?.headline, route.path).toBe(source?.title)
        expect(article?.inLanguage, route.path).toBe(tag)
        for (const key of ['image', 'datePublished', 'dateModified', 'author', 'publisher']) {
          expect(article?.[key], `${route.path}: Article.${key}`).toBeTruthy()
        }
        expect(ofType(graph, 'Person'), `${route.path}: the author`).toHaveLength(1)
        // An article and its translation name each other.
        const versions = (route.versions?.languages ?? []).filter((v) => !v.current && v.path)
        const linked = (article?.workTranslation ?? article?.translationOfWork ?? []) as Node[]
        if (tag === content.settings.language) expect(linked.map((v) => v.inLanguage)).toEqual(versions.map((v) => v.tag))
        else expect(linked.map((v) => v.inLanguage)).toEqual([content.settings.language])
      }
      if (route.kind === 'service-category' || route.kind === 'sub-service') {
        expect(ofType(graph, 'Service'), `${route.path}: the service`).toHaveLength(1)
      }
    }
  })
}
