import { expect, test } from '@playwright/test'
import { content, html } from './support/built'
import { byRole, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The four category pages and every sub-service page, as the server sends them. (Moved from
// the Chromium suite: every check here is of markup; tests/services-categories.spec.ts keeps
// the one that needs a browser.)

function category(slug: string) {
  const found = content.services.find((c) => c.slug === slug)
  if (!found) throw new Error(`no category ${slug} in the content`)
  return found
}

function subService(categorySlug: string, slug: string) {
  const found = category(categorySlug).sub_services.find((s) => s.slug === slug)
  if (!found) throw new Error(`no sub-service ${categorySlug}/${slug} in the content`)
  return found
}

const title = (path: string) => html(path)('head > title').text()

test.describe('category pages', () => {
  test('the four categories of the spec exist, in menu order', () => {
    expect(content.services.map((c) => c.slug)).toEqual([
      'data-analytics',
      'artificial-intelligence',
      'cloud-services',
      'software-engineering',
    ])
  })

  for (const slug of ['data-analytics', 'artificial-intelligence', 'cloud-services', 'software-engineering']) {
    test(`/services/${slug}: hero, sub-service cards, then case studies with buttons to /contact`, () => {
      const data = category(slug)
      const studies = data.case_studies
      expect(studies, `${slug} has case studies`).not.toBeNull()
      if (!studies) return

      const $ = html(`/services/${slug}`)
      expect(title(`/services/${slug}`)).toBe(data.meta.title)
      expect(byRole($, 'heading', { level: 1 }).map((h) => nameOf($, h))).toEqual([data.hero.title])
      expect(sectionHeadings($)).toEqual([data.services_intro?.title, studies.intro.title])

      // Every sub-service is reachable from its category, by a link named after it.
      const services = only($, 'region', { name: data.services_intro?.title })
      expect(byRole($, 'link', {}, services)).toHaveLength(data.sub_services.length)
      for (const sub of data.sub_services) {
        expect(only($, 'link', { name: sub.name }, services).attr('href')).toBe(`/services/${slug}/${sub.slug}`)
      }

      // Case-study cards: client type, challenge, solution and result bullets, a button to /contact.
      const region = only($, 'region', { name: studies.intro.title })
      const cards = byRole($, 'article', {}, region)
      expect(cards).toHaveLength(studies.items.length)
      expect(studies.items.length).toBeGreaterThanOrEqual(1)
      for (const [i, study] of studies.items.entries()) {
        const card = $(cards[i])
        expect(byRole($, 'heading', { level: 3 }, card).map((h) => nameOf($, h))).toEqual([study.title])
        expect(card.find('*').toArray().some((el) => textOf($, $(el)) === study.client)).toBe(true)
        expect(byRole($, 'heading', { level: 4 }, card).map((h) => nameOf($, h))).toEqual([
          studies.labels.challenge,
          studies.labels.solution,
          studies.labels.results,
        ])
        expect(textOf($, card)).toContain(study.challenge)
        const lists = byRole($, 'list', {}, card)
        const items = (n: number) => byRole($, 'listitem', {}, $(lists[n])).map((li) => textOf($, $(li)))
        expect(items(0)).toEqual(study.solution)
        expect(items(1)).toEqual(study.results)
        expect(only($, 'link', { name: study.action.label }, card).attr('href')).toBe('/contact')
      }
    })
  }

  test('Software Engineering shows the two spec case studies with their figures', () => {
    const $ = html('/services/software-engineering')
    const cards = byRole($, 'article', {}, $('main'))
    expect(cards).toHaveLength(2)
    const card = (heading: string) => {
      const found = cards.filter((c) => byRole($, 'heading', { name: heading }, $(c)).length > 0)
      expect(found, heading).toHaveLength(1)
      return $(found[0])
    }

    const quality = card('Quality Engineering & Testing')
    expect(textOf($, quality)).toContain('A healthcare technology platform')
    expect(textOf($, quality)).toContain('95% fewer production defects')
    expect(textOf($, quality)).toContain('80% faster testing')

    const architecture = card('Solution Architecture')
    expect(textOf($, architecture)).toContain('An e-commerce platform')
    expect(textOf($, architecture)).toMatch(/99\.95% uptime/)

    for (const c of [quality, architecture]) {
      expect(byRole($, 'link', {}, c).map((a) => a.attribs.href)).toEqual(['/contact'])
    }
  })

  test('the case studies carry the marketing figures of the spec', () => {
    const figures: Record<string, RegExp[]> = {
      'data-analytics': [/70% less data processing time/, /\$2\.5M annual savings/, /5x faster reporting/],
      'artificial-intelligence': [/75% less processing time/, /\$2M saved annually/, /40% efficiency increase/],
      'cloud-services': [/60% cost reduction/, /99\.9% uptime guarantee/],
    }
    for (const [slug, expected] of Object.entries(figures)) {
      const $ = html(`/services/${slug}`)
      const cards = $(byRole($, 'article', {}, $('main')))
      for (const figure of expected) expect(textOf($, cards)).toMatch(figure)
    }
  })

  test('a sub-service card leads to its page', () => {
    const $ = html('/services/cloud-services')
    const link = only($, 'link', { name: 'Cloud Infrastructure' }, $('main'))
    expect(link.attr('href')).toBe('/services/cloud-services/infrastructure')
    const target = html(link.attr('href') ?? '')
    expect(byRole(target, 'heading', { level: 1 }).map((h) => nameOf(target, h))).toEqual([
      subService('cloud-services', 'infrastructure').hero.title,
    ])
  })
})

test.describe('sub-service pages', () => {
  test('every category lists the sub-pages of the spec', () => {
    const slugs = Object.fromEntries(content.services.map((c) => [c.slug, c.sub_services.map((s) => s.slug)]))
    expect(slugs).toEqual({
      'data-analytics': ['data-strategy', 'data-platform', 'data-value', 'data-marketing', 'strategy', 'platform', 'insights'],
      'artificial-intelligence': ['ai-strategy', 'generative-ai', 'ai-engineering', 'machine-learning', 'nlp', 'computer-vision'],
      'cloud-services': ['cloud-migration', 'devops', 'legacy-modernization', 'migration', 'infrastructure', 'security'],
      'software-engineering': ['quality-engineering', 'solution-architecture', 'web-development', 'mobile-apps', 'api-development'],
    })
  })

  for (const data of content.services) {
    for (const sub of data.sub_services) {
      const path = `/services/${data.slug}/${sub.slug}`
      // The answer's status (200) is routes.spec.ts's: it loads every route.
      test(`${path} renders its hero and sections`, () => {
        const $ = html(path)
        expect(title(path)).toBe(sub.meta.title)
        expect(byRole($, 'heading', { level: 1 }).map((h) => nameOf($, h))).toEqual([sub.hero.title])
        const main = textOf($, $('main'))
        expect(main).toContain(sub.hero.lead)
        const expected = [sub.blurb?.title, sub.tiles?.intro.title].filter((t) => t !== undefined)
        expect(sectionHeadings($)).toEqual(expected)
        if (sub.blurb) {
          for (const paragraph of sub.blurb.body) expect(main).toContain(paragraph)
        }
        // Pages without a blurb are hero pages: they must offer a way on.
        if (!sub.blurb) expect(sub.hero.actions.length).toBeGreaterThan(0)
      })
    }
  }

  for (const [categorySlug, slug] of [
    ['cloud-services', 'legacy-modernization'],
    ['software-engineering', 'quality-engineering'],
    ['software-engineering', 'solution-architecture'],
  ] as const) {
    test(`${slug} offers Get Started, leading to /contact`, () => {
      const $ = html(`/services/${categorySlug}/${slug}`)
      expect(only($, 'link', { name: 'Get Started' }, $('main')).attr('href')).toBe('/contact')
    })
  }

  test('Cloud Migration is a hero and a short blurb, without a button', () => {
    const $ = html('/services/cloud-services/cloud-migration')
    const main = $('main')
    expect(byRole($, 'heading', { level: 2 }, main)).toHaveLength(1)
    expect(byRole($, 'link', {}, main)).toHaveLength(0)
    expect(byRole($, 'link', { name: 'Get Started' }, main)).toHaveLength(0)
  })

  for (const [categorySlug, slug] of [
    ['cloud-services', 'security'],
    ['software-engineering', 'web-development'],
    ['software-engineering', 'mobile-apps'],
    ['software-engineering', 'api-development'],
  ] as const) {
    test(`${slug} is a hero and a blurb`, () => {
      const sub = subService(categorySlug, slug)
      const $ = html(`/services/${categorySlug}/${slug}`)
      const blurb = only($, 'region', { name: sub.blurb?.title })
      const paragraphs = byRole($, 'paragraph', {}, blurb).filter((p) => textOf($, $(p)) !== '')
      expect(paragraphs.length).toBeGreaterThan(0)
    })
  }

  test('Cloud Infrastructure shows four platform tiles', () => {
    const sub = subService('cloud-services', 'infrastructure')
    const $ = html('/services/cloud-services/infrastructure')
    only($, 'region', { name: sub.blurb?.title })
    const tiles = only($, 'region', { name: sub.tiles?.intro.title })
    expect(byRole($, 'listitem', {}, tiles)).toHaveLength(4)
    expect(byRole($, 'heading', { level: 3 }, tiles).map((h) => nameOf($, h))).toEqual([
      'Amazon Web Services',
      'Microsoft Azure',
      'Google Cloud Platform',
      'Docker',
    ])
  })
})
