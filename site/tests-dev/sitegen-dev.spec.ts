// `sitegen dev` end to end: every language's pages are served at their published URLs, with the content's redirects and drafts; a content save shows in the open page without a manual reload (and
// reloads only the open pages it changes), a content mistake shows in Vite's error overlay with its file:line:col while the page keeps its
// last good content, the fix clears it, and SIGTERM leaves no process behind.
import { expect, test } from '@playwright/test'
import { alive, attachDevOutput, startDev } from './devServer'

// A failed test's report carries what its `sitegen dev` printed.
test.afterEach(attachDevOutput)

test('sitegen dev reloads on save, shows content mistakes and stops cleanly', async ({ page }) => {
  const dev = await startDev()
  try {
    await page.goto(new URL('/about/', dev.url).href)
    const heading = page.getByRole('heading', { level: 1 })
    await expect(heading).toHaveText('Engineering the future of business since 2019')

    // Another page is open, which shows nothing of the About page.
    const other = await page.context().newPage()
    await other.goto(new URL('/insights/', dev.url).href)
    const kept = () => other.evaluate(() => (window as { kept?: boolean }).kept ?? false)
    await other.evaluate(() => ((window as { kept?: boolean }).kept = true))

    // A saved title shows without reloading by hand, and only in the page that shows it: the
    // other page was not told to reload (it would have been, before this page reloaded).
    dev.edit('pages/about.yaml', (text) =>
      text.replace('title: Engineering the future of business since 2019', 'title: Engineering the future of business, edited'),
    )
    await expect(heading).toHaveText('Engineering the future of business, edited')
    expect(await kept()).toBe(true)

    // The frame of every page: both pages reload and show it.
    dev.edit('site.yaml', (text) => text.replace('All rights reserved.', 'All rights reserved, edited.'))
    await expect(other.getByText('All rights reserved, edited.')).toBeVisible()
    await expect(page.getByText('All rights reserved, edited.')).toBeVisible()
    expect(await kept()).toBe(false)
    await other.close()

    // A misspelt field: the overlay names the file, line and column; the page keeps the last
    // good content underneath.
    dev.edit('pages/about.yaml', (text) => text.replace('title: Engineering the future of business, edited', 'titel: Engineering the future of business, edited'))
    const overlay = page.locator('vite-error-overlay')
    await expect(overlay).toBeVisible()
    const where = `pages/about.yaml:${dev.position('pages/about.yaml', 'titel:')}`
    await expect(overlay.locator('.message-body')).toContainText(`${where}: hero: unknown field \`titel\``)
    await expect(heading).toHaveText('Engineering the future of business, edited')
    expect(dev.output()).toContain(`${where}: hero: unknown field \`titel\``)

    // Saving the fix clears the overlay and shows the page again.
    dev.edit('pages/about.yaml', (text) => text.replace('titel: Engineering the future of business, edited', 'title: Engineering the future of business, fixed'))
    await expect(heading).toHaveText('Engineering the future of business, fixed')
    await expect(overlay).toHaveCount(0)

    // SIGTERM stops every process it started.
    const started = dev.processes()
    expect(started.length).toBeGreaterThanOrEqual(2)
    await dev.stop()
    await expect.poll(() => started.filter(alive)).toEqual([])
  } finally {
    await dev.stop()
  }
})

test('sitegen dev serves the pages of every language, and a saved translation shows in its page', async ({ page }) => {
  const dev = await startDev()
  try {
    await page.goto(new URL('/et/about/', dev.url).href)
    await expect(page.locator('html')).toHaveAttribute('lang', 'et')
    const heading = page.getByRole('heading', { level: 1 })
    await expect(heading).toHaveText('Loome äri tulevikku alates 2019. aastast')
    // The English page beside it renders in English, though both are open.
    const english = await page.context().newPage()
    await english.goto(new URL('/about/', dev.url).href)
    await expect(english.locator('html')).toHaveAttribute('lang', 'en')
    await expect(english.getByRole('heading', { level: 1 })).toHaveText('Engineering the future of business since 2019')
    dev.edit('pages/about.et.yaml', (text) =>
      text.replace('title: Loome äri tulevikku alates 2019. aastast', 'title: Loome äri tulevikku, muudetud'),
    )
    await expect(heading).toHaveText('Loome äri tulevikku, muudetud')
    await expect(english.getByRole('heading', { level: 1 })).toHaveText('Engineering the future of business since 2019')
  } finally {
    await dev.stop()
  }
})

test('sitegen dev serves the photos and social cards of the current content', async ({ page, request }) => {
  const dev = await startDev()
  try {
    await page.goto(new URL('/industries/', dev.url).href)
    // A photo of the content: its <picture> loads an encoded file from /img/, fully.
    const photo = page.getByRole('img', { name: 'An espresso in a red cup and saucer on a wooden café table.' })
    await photo.scrollIntoViewIfNeeded()
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
    expect(await photo.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toMatch(/^\/img\/.+\.avif$/)
    // The page's social card is served as the PNG its head names, once drawn: sitegen dev draws
    // the cards at the lowest priority after it serves the first page, and a request for one
    // waits for it (for 30 s, then asks again here).
    const card = await page.locator('meta[property="og:image"]').getAttribute('content')
    const cardUrl = new URL(new URL(card ?? '').pathname, dev.url).href
    await expect
      .poll(async () => {
        const response = await request.get(cardUrl, { timeout: 35_000 })
        return [response.status(), response.headers()['content-type']]
      }, { timeout: 90_000 })
      .toEqual([200, 'image/png'])
  } finally {
    await dev.stop()
  }
})

test('a photo saved into an article body shows as a lazy picture of the encoded files', async ({ page }) => {
  const dev = await startDev()
  try {
    const article = 'articles/dashboards-nobody-opens-and-how-to-fix-them.md'
    const alt = 'An espresso on a café table, the kind of decision a dashboard should serve'
    dev.edit(article, (text) =>
      text.replace('## Start from the decision\n', `## Start from the decision\n\n![${alt}](/images/industries/retail-coffee.png)\n`),
    )
    await page.goto(new URL('/insights/dashboards-nobody-opens-and-how-to-fix-them/', dev.url).href)
    const photo = page.getByRole('img', { name: alt })
    await expect(photo).toHaveAttribute('loading', 'lazy')
    await expect(photo).toHaveAttribute('decoding', 'async')
    await expect(photo).toHaveAttribute('width', '600')
    await expect(photo).toHaveAttribute('height', '400')
    const types = await photo.evaluate((img) => [...(img.parentElement?.querySelectorAll('source') ?? [])].map((s) => s.type))
    expect(types).toEqual(['image/avif', 'image/webp'])
    await photo.scrollIntoViewIfNeeded()
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
    expect(await photo.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toMatch(/^\/img\/.+\.avif$/)
    // Laid out at its own size within the column, its ratio kept.
    const box = await photo.boundingBox()
    expect(box && Math.round((box.width / box.height) * 100)).toBe(150)
    await page.screenshot({ path: test.info().outputPath('body-photo.png') })
  } finally {
    await dev.stop()
  }
})

test('at 5,000 generated articles, a save of the open article shows in it', async ({ page }) => {
  test.setTimeout(600_000)
  const dev = await startDev({ articles: 5000 })
  try {
    const slug = 'dashboards-nobody-opens-and-how-to-fix-them'
    await page.goto(new URL(`/insights/${slug}/`, dev.url).href)
    const body = page.locator('.article-body')
    await expect(body).toContainText('Start from the decision')
    const added = 'A sentence saved into the article while five thousand others wait.'
    dev.edit(`articles/${slug}.md`, (text) => text.replace('## Start from the decision\n', `## Start from the decision\n\n${added}\n`))
    await expect(body).toContainText(added)
    // A generated article's page renders from the same content.
    await page.goto(new URL('/insights/', dev.url).href)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  } finally {
    await dev.stop()
  }
})

test('sitegen dev answers as the published site: an Estonian page at its URL with the slash, a draft with its banner, an alias with 301', async ({
  page,
  request,
}) => {
  const dev = await startDev()
  try {
    const at = (path: string) => new URL(path, dev.url).href
    // Every published link ends in `/`: the page answers there, not with a redirect to the form
    // without it.
    const estonian = await request.get(at('/et/insights/'), { maxRedirects: 0 })
    expect(estonian.status()).toBe(200)
    expect(await estonian.text()).toMatch(/<html [^>]*lang="et"/)
    dev.edit('articles/five-questions-to-ask-before-your-next-cloud-migration.md', (text) =>
      text.replace('---\n', '---\naliases: [/insights/old-cloud-questions]\n'),
    )
    dev.edit('articles/dashboards-nobody-opens-and-how-to-fix-them.md', (text) => text.replace('---\n', '---\ndraft: true\n'))
    const moved = () => request.get(at('/insights/old-cloud-questions/'), { maxRedirects: 0 })
    await expect.poll(async () => (await moved()).status()).toBe(301)
    expect((await moved()).headers().location).toBe('/insights/five-questions-to-ask-before-your-next-cloud-migration/')
    const draft = at('/insights/dashboards-nobody-opens-and-how-to-fix-them/')
    await page.goto(draft)
    await expect(page.getByRole('note')).toHaveText('Draft')
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    expect(page.url()).toBe(draft)
  } finally {
    await dev.stop()
  }
})
