import { expect, test } from '@playwright/test'
import type { LegalPage } from '../schema/LegalPage'
import { content, html } from './support/built'
import { byRole, hasExactText, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The privacy policy and the terms as the server sends them. (Moved from the Chromium suite:
// tests/legal.spec.ts keeps the table of contents' jump and the line length, which need a browser.)

const pages: [string, LegalPage, string, RegExp[]][] = [
  ['/privacy', content.pages.privacy, 'Privacy Policy', [/information we collect/i, /use/i, /sharing/i, /contact/i]],
  ['/terms', content.pages.terms, 'Terms of Service', [/acceptance/i, /use of services/i, /intellectual property/i, /contact/i]],
]

for (const [path, page, title, sections] of pages) {
  test.describe(title, () => {
    test('was last updated December 25, 2024', () => {
      const $ = html(path)
      expect(byRole($, 'heading', { level: 1 }).map((h) => nameOf($, h))).toEqual([title])
      expect(hasExactText($, $('body'), 'Last updated December 25, 2024')).toBe(true)
    })

    // That following the last entry scrolls its section into view is the Chromium test of the same name's.
    test('has its sections in order, each reachable from the table of contents', () => {
      const $ = html(path)
      const headings = sectionHeadings($)
      expect(headings).toEqual(page.sections.map((section) => section.title))
      expect(headings).toHaveLength(sections.length)
      sections.forEach((pattern, i) => expect(headings[i]).toMatch(pattern))

      const contents = only($, 'navigation', { name: page.contents_label })
      const links = byRole($, 'link', {}, contents)
      expect(links.map((a) => nameOf($, a))).toEqual(headings)
      // Each entry points at its section, which is named by its heading.
      for (const [i, section] of page.sections.entries()) {
        expect(links[i]?.attribs.href).toBe(`#${section.id}`)
        expect($(`[id="${section.id}"]`)).toHaveLength(1)
        expect(only($, 'region', { name: section.title }).attr('id')).toBe(section.id)
      }
    })

    test('tells visitors how to reach the company', () => {
      const $ = html(path)
      const contact = page.sections.at(-1)
      if (!contact) throw new Error(`${path} has no sections`)
      const region = only($, 'region', { name: contact.title })
      expect(only($, 'link', { name: content.settings.contact.email }, region).attr('href')).toBe(
        `mailto:${content.settings.contact.email}`,
      )
    })
  })
}

test('the privacy policy promises not to sell or rent personal information', () => {
  const $ = html('/privacy')
  expect(textOf($, $('main'))).toContain('We do not sell or rent your personal information')
})

test('the terms allow lawful purposes only', () => {
  const $ = html('/terms')
  expect(textOf($, $('main'))).toContain('lawful purposes only')
})
