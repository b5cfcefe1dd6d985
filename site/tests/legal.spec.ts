import { expect, test } from '@playwright/test'
import type { LegalPage } from '../schema/LegalPage'
import { content } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const pages: [string, LegalPage, string, RegExp[]][] = [
  [
    '/privacy',
    content.pages.privacy,
    'Privacy Policy',
    [/information we collect/i, /use/i, /sharing/i, /contact/i],
  ],
  [
    '/terms',
    content.pages.terms,
    'Terms of Service',
    [/acceptance/i, /use of services/i, /intellectual property/i, /contact/i],
  ],
]

for (const [path, page, title, sections] of pages) {
  test.describe(title, () => {
    test('was last updated December 25, 2024', async ({ page: tab }) => {
      await visit(tab, path)
      await expect(tab.getByRole('heading', { level: 1 })).toHaveText(title)
      await expect(tab.getByText('Last updated December 25, 2024', { exact: true })).toBeVisible()
    })

    test('has its sections in order, each reachable from the table of contents', async ({ page: tab }) => {
      await visit(tab, path)
      const headings = await sectionHeadings(tab)
      expect(headings).toEqual(page.sections.map((section) => section.title))
      expect(headings).toHaveLength(sections.length)
      sections.forEach((pattern, i) => expect(headings[i]).toMatch(pattern))

      const contents = tab.getByRole('navigation', { name: page.contents_label })
      await expect(contents.getByRole('link')).toHaveText(headings)
      const last = page.sections.at(-1)
      if (!last) throw new Error(`${path} has no sections`)
      await contents.getByRole('link', { name: last.title }).click()
      await expect(tab).toHaveURL(new RegExp(`#${last.id}$`))
      await expect(tab.getByRole('heading', { level: 2, name: last.title })).toBeInViewport()
    })

    test('keeps lines short enough to read', async ({ page: tab }) => {
      await visit(tab, path)
      const paragraph = tab.getByRole('main').locator('article p').first()
      const chars = await paragraph.evaluate((p) => {
        const width = p.getBoundingClientRect().width
        const size = parseFloat(getComputedStyle(p).fontSize)
        // An average character of running text is about half the font size wide.
        return width / (size * 0.5)
      })
      expect(chars).toBeLessThanOrEqual(90)
    })

    test('tells visitors how to reach the company', async ({ page: tab }) => {
      await visit(tab, path)
      const contact = page.sections.at(-1)
      if (!contact) throw new Error(`${path} has no sections`)
      const region = tab.getByRole('region', { name: contact.title })
      await expect(region.getByRole('link', { name: content.settings.contact.email })).toHaveAttribute(
        'href',
        `mailto:${content.settings.contact.email}`,
      )
    })
  })
}

test('the privacy policy promises not to sell or rent personal information', async ({ page }) => {
  await visit(page, '/privacy')
  await expect(page.getByRole('main')).toContainText('We do not sell or rent your personal information')
})

test('the terms allow lawful purposes only', async ({ page }) => {
  await visit(page, '/terms')
  await expect(page.getByRole('main')).toContainText('lawful purposes only')
})
