import { expect, test } from '@playwright/test'
import { content, pathOf } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

// The four category pages and every sub-service page, as a visitor reads them.

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
    test(`/services/${slug}: hero, sub-service cards, then case studies with buttons to /contact`, async ({ page }) => {
      const data = category(slug)
      const studies = data.case_studies
      expect(studies, `${slug} has case studies`).not.toBeNull()
      if (!studies) return

      await visit(page, `/services/${slug}`)
      await expect(page).toHaveTitle(data.meta.title)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(data.hero.title)
      expect(await sectionHeadings(page)).toEqual([data.services_intro?.title, studies.intro.title])

      // Every sub-service is reachable from its category, by a link named after it.
      const services = page.getByRole('region', { name: data.services_intro?.title })
      await expect(services.getByRole('link')).toHaveCount(data.sub_services.length)
      for (const sub of data.sub_services) {
        await expect(services.getByRole('link', { name: sub.name, exact: true })).toHaveAttribute(
          'href',
          `/services/${slug}/${sub.slug}`,
        )
      }

      // Case-study cards: client type, challenge, solution and result bullets, a button to /contact.
      const region = page.getByRole('region', { name: studies.intro.title })
      const cards = region.getByRole('article')
      await expect(cards).toHaveCount(studies.items.length)
      expect(studies.items.length).toBeGreaterThanOrEqual(1)
      for (const [i, study] of studies.items.entries()) {
        const card = cards.nth(i)
        await expect(card.getByRole('heading', { level: 3 })).toHaveText(study.title)
        await expect(card.getByText(study.client, { exact: true })).toBeVisible()
        await expect(card.getByRole('heading', { level: 4 })).toHaveText([
          studies.labels.challenge,
          studies.labels.solution,
          studies.labels.results,
        ])
        await expect(card.getByText(study.challenge)).toBeVisible()
        const lists = card.getByRole('list')
        await expect(lists.nth(0).getByRole('listitem')).toHaveText(study.solution)
        await expect(lists.nth(1).getByRole('listitem')).toHaveText(study.results)
        await expect(card.getByRole('link', { name: study.action.label })).toHaveAttribute('href', '/contact')
      }
    })
  }

  test('Software Engineering shows the two spec case studies with their figures', async ({ page }) => {
    await visit(page, '/services/software-engineering')
    const cards = page.getByRole('main').getByRole('article')
    await expect(cards).toHaveCount(2)

    const quality = cards.filter({ has: page.getByRole('heading', { name: 'Quality Engineering & Testing' }) })
    await expect(quality.getByText('A healthcare technology platform')).toBeVisible()
    await expect(quality.getByText('95% fewer production defects')).toBeVisible()
    await expect(quality.getByText('80% faster testing')).toBeVisible()

    const architecture = cards.filter({ has: page.getByRole('heading', { name: 'Solution Architecture' }) })
    await expect(architecture.getByText('An e-commerce platform')).toBeVisible()
    await expect(architecture.getByText(/99\.95% uptime/)).toBeVisible()

    for (const card of [quality, architecture]) {
      await expect(card.getByRole('link')).toHaveAttribute('href', '/contact')
    }
  })

  test('the case studies carry the marketing figures of the spec', async ({ page }) => {
    const figures: Record<string, RegExp[]> = {
      'data-analytics': [/70% less data processing time/, /\$2\.5M annual savings/, /5x faster reporting/],
      'artificial-intelligence': [/75% less processing time/, /\$2M saved annually/, /40% efficiency increase/],
      'cloud-services': [/60% cost reduction/, /99\.9% uptime guarantee/],
    }
    for (const [slug, expected] of Object.entries(figures)) {
      await visit(page, `/services/${slug}`)
      const cards = page.getByRole('main').getByRole('article')
      for (const figure of expected) await expect(cards.getByText(figure)).toBeVisible()
    }
  })

  test('a sub-service card leads to its page', async ({ page }) => {
    await visit(page, '/services/cloud-services')
    await page.getByRole('link', { name: 'Cloud Infrastructure', exact: true }).click()
    await expect(page).toHaveURL((url) => pathOf(url.href) === '/services/cloud-services/infrastructure')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      subService('cloud-services', 'infrastructure').hero.title,
    )
  })

  for (const slug of ['data-analytics', 'software-engineering']) {
  }
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
      test(`${path} renders its hero and sections`, async ({ page }) => {
        const response = await visit(page, path)
        expect(response?.status()).toBe(200)
        await expect(page).toHaveTitle(sub.meta.title)
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(sub.hero.title)
        await expect(page.getByText(sub.hero.lead)).toBeVisible()
        const expected = [sub.blurb?.title, sub.tiles?.intro.title].filter((t) => t !== undefined)
        expect(await sectionHeadings(page)).toEqual(expected)
        if (sub.blurb) {
          for (const paragraph of sub.blurb.body) await expect(page.getByText(paragraph)).toBeVisible()
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
    test(`${slug} offers Get Started, leading to /contact`, async ({ page }) => {
      await visit(page, `/services/${categorySlug}/${slug}`)
      await expect(page.getByRole('main').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/contact')
    })
  }

  test('Cloud Migration is a hero and a short blurb, without a button', async ({ page }) => {
    await visit(page, '/services/cloud-services/cloud-migration')
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 2 })).toHaveCount(1)
    await expect(main.getByRole('link')).toHaveCount(0)
    await expect(main.getByRole('link', { name: 'Get Started' })).toHaveCount(0)
  })

  for (const [categorySlug, slug] of [
    ['cloud-services', 'security'],
    ['software-engineering', 'web-development'],
    ['software-engineering', 'mobile-apps'],
    ['software-engineering', 'api-development'],
  ] as const) {
    test(`${slug} is a hero and a blurb`, async ({ page }) => {
      const sub = subService(categorySlug, slug)
      await visit(page, `/services/${categorySlug}/${slug}`)
      const blurb = page.getByRole('region', { name: sub.blurb?.title })
      await expect(blurb).toBeVisible()
      await expect(blurb.getByRole('paragraph').first()).toBeVisible()
    })
  }

  test('Cloud Infrastructure shows four platform tiles', async ({ page }) => {
    const sub = subService('cloud-services', 'infrastructure')
    await visit(page, '/services/cloud-services/infrastructure')
    await expect(page.getByRole('region', { name: sub.blurb?.title })).toBeVisible()
    const tiles = page.getByRole('region', { name: sub.tiles?.intro.title })
    await expect(tiles.getByRole('listitem')).toHaveCount(4)
    await expect(tiles.getByRole('heading', { level: 3 })).toHaveText([
      'Amazon Web Services',
      'Microsoft Azure',
      'Google Cloud Platform',
      'Docker',
    ])
  })

  // One page of each layout: hero only, hero + blurb, hero + blurb with highlights, hero + blurb + tiles.
  for (const path of [
    '/services/cloud-services/legacy-modernization',
    '/services/cloud-services/cloud-migration',
    '/services/data-analytics/data-strategy',
    '/services/cloud-services/infrastructure',
  ]) {
  }
})
