import { expect, test } from '@playwright/test'
import { content } from './support/content'
import { sectionHeadings } from './support/sections'
import { visit } from './support/visit'

const page_ = content.pages.case_studies

test.describe('Success Stories page', () => {
  test('shows the hero, headline results, the stories and the closing call, in order', async ({ page }) => {
    await visit(page, '/case-studies')
    await expect(page).toHaveTitle(page_.meta.title)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(page_.hero.title)
    expect(await sectionHeadings(page)).toEqual([page_.stories.intro.title, page_.call_to_action.title])
    const figures = page.getByRole('main').getByRole('definition')
    await expect(figures).toHaveText(page_.highlights.map((h) => h.number))
  })

  test('tells the two stories of the spec, each with challenge, solution and results', async ({ page }) => {
    await visit(page, '/case-studies')
    const cards = page.getByRole('region', { name: page_.stories.intro.title }).getByRole('article')
    await expect(cards).toHaveCount(2)

    const platform = cards.filter({ hasText: 'A large technology company' })
    await expect(platform.getByRole('heading', { level: 3 })).toHaveText(/data platform/i)
    const loans = cards.filter({ hasText: 'A financial-services startup' })
    await expect(loans.getByRole('heading', { level: 3 })).toHaveText(/AI loan processing/i)
    await expect(loans.getByText(/95% less processing time/)).toBeVisible()
    await expect(loans.getByText(/400% more loan volume capacity/)).toBeVisible()

    for (const [i, study] of page_.stories.items.entries()) {
      const card = cards.nth(i)
      await expect(card.getByRole('heading', { level: 4 })).toHaveText(['Challenge', 'Solution', 'Results'])
      await expect(card.getByText(study.challenge)).toBeVisible()
      await expect(card.getByRole('list').nth(0).getByRole('listitem')).toHaveText(study.solution)
      await expect(card.getByRole('list').nth(1).getByRole('listitem')).toHaveText(study.results)
      await expect(card.getByRole('link', { name: study.action.label })).toHaveAttribute('href', '/contact')
    }
  })

  test("the closing call 'Start Your Journey' leads to /contact", async ({ page }) => {
    await visit(page, '/case-studies')
    const cta = page.getByRole('region', { name: page_.call_to_action.title })
    await expect(cta.getByRole('link', { name: 'Start Your Journey' })).toHaveAttribute('href', '/contact')
    await cta.getByRole('link', { name: 'Start Your Journey' }).click()
    await expect(page).toHaveURL(/\/contact\/?$/)
  })
})
