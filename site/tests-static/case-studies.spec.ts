import { expect, test } from '@playwright/test'
import { content, html } from './support/built'
import { byRole, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The Success Stories page as the server sends it. (Moved from the Chromium suite: every check
// of tests/case-studies.spec.ts was of markup or of a plain link.)

const page_ = content.pages.case_studies
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))
const texts = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => textOf($, $(el)))

test.describe('Success Stories page', () => {
  test('shows the hero, headline results, the stories and the closing call, in order', () => {
    const $ = html('/case-studies')
    expect($('head > title').text()).toBe(page_.meta.title)
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([page_.hero.title])
    expect(sectionHeadings($)).toEqual([page_.stories.intro.title, page_.call_to_action.title])
    expect(texts($, byRole($, 'definition', {}, $('main')))).toEqual(page_.highlights.map((h) => h.number))
  })

  test('tells the two stories of the spec, each with challenge, solution and results', () => {
    const $ = html('/case-studies')
    const cards = byRole($, 'article', {}, only($, 'region', { name: page_.stories.intro.title }))
    expect(cards).toHaveLength(2)
    const card = (text: string) => {
      const found = cards.filter((c) => textOf($, $(c)).includes(text))
      expect(found, text).toHaveLength(1)
      return $(found[0])
    }

    const platform = card('A large technology company')
    expect(names($, byRole($, 'heading', { level: 3 }, platform))).toEqual([expect.stringMatching(/data platform/i)])
    const loans = card('A financial-services startup')
    expect(names($, byRole($, 'heading', { level: 3 }, loans))).toEqual([expect.stringMatching(/AI loan processing/i)])
    expect(textOf($, loans)).toMatch(/95% less processing time/)
    expect(textOf($, loans)).toMatch(/400% more loan volume capacity/)

    for (const [i, study] of page_.stories.items.entries()) {
      const c = $(cards[i])
      expect(names($, byRole($, 'heading', { level: 4 }, c))).toEqual(['Challenge', 'Solution', 'Results'])
      expect(textOf($, c)).toContain(study.challenge)
      const lists = byRole($, 'list', {}, c)
      expect(texts($, byRole($, 'listitem', {}, $(lists[0])))).toEqual(study.solution)
      expect(texts($, byRole($, 'listitem', {}, $(lists[1])))).toEqual(study.results)
      expect(only($, 'link', { name: study.action.label }, c).attr('href')).toBe('/contact')
    }
  })

  // A plain link: its href, and that the page it leads to is built.
  test("the closing call 'Start Your Journey' leads to /contact", () => {
    const $ = html('/case-studies')
    const cta = only($, 'region', { name: page_.call_to_action.title })
    const href = only($, 'link', { name: 'Start Your Journey' }, cta).attr('href') ?? ''
    expect(href).toMatch(/^\/contact\/?$/)
    expect(byRole(html(href), 'main')).toHaveLength(1)
  })
})
