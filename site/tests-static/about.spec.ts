import { expect, test } from '@playwright/test'
import { content, html } from './support/built'
import { byRole, hasExactText, nameOf, only, sectionHeadings, textOf } from './support/roles'

// The About page as the server sends it. (Moved from the Chromium suite: tests/about.spec.ts
// keeps the jump to Join Our Mission and the sections fading in, which need a browser.)

const about = content.pages.about
const names = ($: ReturnType<typeof html>, els: ReturnType<typeof byRole>) => els.map((el) => nameOf($, el))

test.describe('About page', () => {
  test('shows its sections in order', () => {
    const $ = html('/about')
    expect(names($, byRole($, 'heading', { level: 1 }))).toEqual([about.hero.title])
    expect(sectionHeadings($)).toEqual([
      'Mission and Vision',
      'Leadership That Drives Innovation',
      'Our Story',
      'Our Journey to Excellence',
      'Our Technology Stack',
      'Leadership Team',
      'Join Our Mission',
    ])
  })

  test('the timeline has four milestones, oldest first', () => {
    const $ = html('/about')
    const milestones = byRole($, 'listitem', {}, only($, 'region', { name: 'Our Journey to Excellence' }))
    expect(milestones).toHaveLength(4)
    const expected = [
      ['2019', 'The Beginning'],
      ['2021', 'AI Revolution'],
      ['2023', 'Worldwide Impact'],
      ['2024', 'The Future'],
    ]
    for (const [i, [year, title]] of expected.entries()) {
      const milestone = $(milestones[i])
      expect(textOf($, milestone)).toContain(year)
      expect(names($, byRole($, 'heading', { level: 3 }, milestone))).toEqual([title])
    }
  })

  test('the technology stack shows cloud and AI logos and three delivery cases', () => {
    const $ = html('/about')
    const section = only($, 'region', { name: 'Our Technology Stack' })
    expect(byRole($, 'img', {}, section).map((img) => img.attribs.alt)).toEqual([
      'AWS',
      'Azure',
      'GCP',
      'Docker',
      'TensorFlow',
      'PyTorch',
      'OpenAI',
      'Hugging Face',
    ])
    const cases = byRole($, 'article', {}, section)
    expect(cases).toHaveLength(3)
    expect(names($, byRole($, 'heading', { level: 3 }, $(cases)))).toEqual(['Frontend', 'Backend', 'DevOps and Infrastructure'])
    const { challenge, solution, result } = about.tech_stack.case_labels
    for (const block of cases) {
      expect(byRole($, 'term', {}, $(block)).map((dt) => textOf($, $(dt)))).toEqual([challenge, solution, result])
      for (const answer of byRole($, 'definition', {}, $(block))) expect(textOf($, $(answer))).not.toBe('')
    }
  })

  test('the leadership team has four people with role and bio', () => {
    const $ = html('/about')
    const people = byRole($, 'article', {}, only($, 'region', { name: 'Leadership Team' }))
    expect(people).toHaveLength(4)
    for (const [i, person] of about.team.people.entries()) {
      const card = $(people[i])
      expect(names($, byRole($, 'heading', { level: 3 }, card))).toEqual([person.name])
      expect(hasExactText($, card, person.role)).toBe(true)
      expect(textOf($, card)).toContain(person.bio)
    }
  })

  // Following the link there (the URL, the section scrolled into view) is the Chromium test of the same name's.
  test('Work With Us leads to the Join Our Mission section, and from there to contact', () => {
    const $ = html('/about')
    const first = byRole($, 'link', { name: 'Work With Us' }, $('main'))[0]
    expect(first?.attribs.href).toMatch(/^\/about\/?#join-our-mission$/)
    expect($('#join-our-mission')).toHaveLength(1)
    const join = only($, 'region', { name: 'Join Our Mission' })
    expect(join.attr('id')).toBe('join-our-mission')
    expect(only($, 'link', { name: 'Work With Us' }, join).attr('href')).toBe('/contact')
  })
})
