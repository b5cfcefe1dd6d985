import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const about = content.pages.about

test.describe('About page', () => {
  test('shows its sections in order', async ({ page }) => {
    await visit(page, '/about')
    await expect(page.getByRole('heading', { level: 1 })).toHaveAccessibleName(about.hero.title)
    expect(await sectionHeadings(page)).toEqual([
      'Mission and Vision',
      'Leadership That Drives Innovation',
      'Our Story',
      'Our Journey to Excellence',
      'Our Technology Stack',
      'Leadership Team',
      'Join Our Mission',
    ])
  })

  test('the timeline has four milestones, oldest first', async ({ page }) => {
    await visit(page, '/about')
    const milestones = page.getByRole('region', { name: 'Our Journey to Excellence' }).getByRole('listitem')
    await expect(milestones).toHaveCount(4)
    const expected = [
      ['2019', 'The Beginning'],
      ['2021', 'AI Revolution'],
      ['2023', 'Worldwide Impact'],
      ['2024', 'The Future'],
    ]
    for (const [i, [year, title]] of expected.entries()) {
      await expect(milestones.nth(i)).toContainText(year ?? '')
      await expect(milestones.nth(i).getByRole('heading', { level: 3 })).toHaveText(title ?? '')
    }
  })

  test('the technology stack shows cloud and AI logos and three delivery cases', async ({ page }) => {
    await visit(page, '/about')
    const section = page.getByRole('region', { name: 'Our Technology Stack' })
    const logos = section.getByRole('img')
    await expect(logos).toHaveCount(8)
    expect(await logos.evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')))).toEqual([
      'AWS',
      'Azure',
      'GCP',
      'Docker',
      'TensorFlow',
      'PyTorch',
      'OpenAI',
      'Hugging Face',
    ])
    const cases = section.getByRole('article')
    await expect(cases).toHaveCount(3)
    await expect(cases.getByRole('heading', { level: 3 })).toHaveText(['Frontend', 'Backend', 'DevOps and Infrastructure'])
    const { challenge, solution, result } = about.tech_stack.case_labels
    for (const block of await cases.all()) {
      await expect(block.getByRole('term')).toHaveText([challenge, solution, result])
      for (const answer of await block.getByRole('definition').all()) await expect(answer).not.toBeEmpty()
    }
  })

  test('the leadership team has four people with role and bio', async ({ page }) => {
    await visit(page, '/about')
    const people = page.getByRole('region', { name: 'Leadership Team' }).getByRole('article')
    await expect(people).toHaveCount(4)
    for (const [i, person] of about.team.people.entries()) {
      const card = people.nth(i)
      await expect(card.getByRole('heading', { level: 3 })).toHaveText(person.name)
      await expect(card.getByText(person.role, { exact: true })).toBeVisible()
      await expect(card.getByText(person.bio)).toBeVisible()
    }
  })

  test('Work With Us leads to the Join Our Mission section, and from there to contact', async ({ page }) => {
    await visit(page, '/about')
    await page.getByRole('main').getByRole('link', { name: 'Work With Us' }).first().click()
    await expect(page).toHaveURL(/\/about\/?#join-our-mission$/)
    const join = page.locator('#join-our-mission')
    await expect(join).toHaveAccessibleName('Join Our Mission')
    await expect(join).toBeInViewport()
    await expect(join.getByRole('link', { name: 'Work With Us' })).toHaveAttribute('href', '/contact')
  })

  test('sections fade in as they scroll into view', async ({ page }) => {
    await visit(page, '/about')
    const team = page.getByRole('region', { name: 'Leadership Team' })
    const intro = team.locator('[data-reveal]').first()
    await expect(intro).toHaveCSS('opacity', '0')
    await team.getByRole('heading', { level: 2 }).scrollIntoViewIfNeeded()
    await expect(intro).toHaveCSS('opacity', '1')
  })
})
