import { expect, type Locator, test } from '@playwright/test'
import { content } from './support/content'
import { visit } from './support/visit'

const home = content.pages.home
const phrase = 'End-to-End Cloud Services'
/** The animated text as read (it is drawn with non-breaking hyphens). */
const shown = async (typed: Locator) => ((await typed.textContent()) ?? '').replaceAll('\u2011', '-')

// The page's markup (sections, cards, logos, figures, links, the headline without JavaScript,
// the FAQ's questions) is checked without a browser in tests-static/home.spec.ts; what stays
// here needs a browser: the form shown, the typing animation, the FAQ's behaviour, the reveal.
test.describe('Home page', () => {
  test('places the Get in Touch form', async ({ page }) => {
    await visit(page, '/')
    const section = page.getByRole('region', { name: 'Get in Touch' })
    await expect(section.getByRole('form', { name: 'Get in Touch' })).toBeVisible()
  })
})

test.describe('Typing headline', () => {
  test('deletes and retypes the phrase, keeping its place', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await visit(page, '/')
    const heading = page.getByRole('heading', { level: 1 })
    const typed = heading.locator('[data-typing]')
    await expect.poll(() => shown(typed), { timeout: 15_000 }).toBe(phrase)
    const box = await typed.locator('..').boundingBox()
    const headingBox = await heading.boundingBox()
    expect(box?.width).toBeGreaterThanOrEqual(280)

    // It shrinks to a part of the phrase, without moving anything around it...
    await expect
      .poll(async () => {
        const text = await shown(typed)
        return text.length < phrase.length && phrase.startsWith(text)
      }, { timeout: 15_000 })
      .toBe(true)
    expect(await heading.boundingBox()).toEqual(headingBox)
    expect(await typed.locator('..').boundingBox()).toEqual(box)
    // ...and returns to the whole phrase.
    await expect.poll(() => shown(typed), { timeout: 15_000 }).toBe(phrase)
    // Screen readers hear the headline once, unchanged by the animation.
    await expect(heading).toHaveAccessibleName(home.hero.title)
  })

  test('stays still with reduced motion', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' })
    const page = await context.newPage()
    await visit(page, '/')
    const typed = page.locator('h1 [data-typing]')
    // Longer than the pause before the first deletion.
    await page.waitForTimeout(3000)
    expect(await shown(typed)).toBe(phrase)
    await context.close()
  })
})

test.describe('FAQ', () => {
  const faq = () => home.faq

  test('opens one item at a time and closes the open one', async ({ page }) => {
    await visit(page, '/')
    const section = page.getByRole('region', { name: faq().intro.title })
    const [first, second] = faq().items
    if (!first || !second) throw new Error('the home FAQ needs two questions')
    const items = section.getByRole('group')
    const answer = (text: string) => section.getByText(text, { exact: true })

    await expect(answer(first.answer)).toBeHidden()
    await section.getByText(first.question).click()
    await expect(answer(first.answer)).toBeVisible()

    await section.getByText(second.question).click()
    await expect(answer(second.answer)).toBeVisible()
    await expect(answer(first.answer)).toBeHidden()
    await expect(items.and(page.locator('[open]'))).toHaveCount(1)

    await section.getByText(second.question).click()
    await expect(answer(second.answer)).toBeHidden()
    await expect(items.and(page.locator('[open]'))).toHaveCount(0)
  })

  test('works from the keyboard', async ({ page }) => {
    await visit(page, '/')
    const section = page.getByRole('region', { name: faq().intro.title })
    const first = faq().items[0]
    if (!first) throw new Error('the home FAQ is empty')
    await section.locator('summary').first().focus()
    await page.keyboard.press('Enter')
    await expect(section.getByText(first.answer)).toBeVisible()
    await page.keyboard.press('Space')
    await expect(section.getByText(first.answer)).toBeHidden()
  })
})

test.describe('Scroll reveal', () => {
  test('sections below the fold appear when scrolled into view', async ({ page }) => {
    await visit(page, '/')
    const section = page.getByRole('region', { name: 'Trusted by industry leaders' })
    const revealed = section.locator('[data-reveal]').first()
    await expect(revealed).toHaveCSS('opacity', '0')
    await section.scrollIntoViewIfNeeded()
    await expect(revealed).toHaveCSS('opacity', '1')
    // Once shown, it stays shown.
    await page.evaluate(() => window.scrollTo(0, 0))
    await expect(revealed).toHaveCSS('opacity', '1')
  })

  test('nothing is hidden without JavaScript or with reduced motion', async ({ browser }) => {
    for (const options of [{ javaScriptEnabled: false }, { reducedMotion: 'reduce' as const }]) {
      const context = await browser.newContext(options)
      const page = await context.newPage()
      if (options.javaScriptEnabled === false) await page.goto('/')
      else await visit(page, '/')
      const stats = page.getByRole('region', { name: 'Trusted by industry leaders' }).locator('[data-reveal]').first()
      await expect(stats).toHaveCSS('opacity', '1')
      await context.close()
    }
  })
})
