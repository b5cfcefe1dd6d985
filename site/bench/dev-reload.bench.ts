// `make bench-dev`: `sitegen dev` at the size of the site as it is and with generated articles
// (BENCH_DEV_ARTICLES, default `0 5000`). For each size it times, from the moment the file is
// written until the reloaded page's DOM holds the new words, four kinds of save (target: a median
// of 0.5 s or less each):
//   - a fixed page's YAML (the About page's title, on /about/);
//   - the open article's body (a sentence added to it, on the article's page);
//   - a new article, the newest, which appears on the open listing page (/insights/);
//   - site.yaml, the frame of every page (the footer's copyright line, on /about/).
// It also times `sitegen dev`'s start until the first page is answered, over BENCH_DEV_STARTS
// starts (target: a median of 3 s at 5,000 articles), and prints the memory of its processes
// together (target: under 600 MB), with the machine's load. Beside each kind of save, the medians
// of what `sitegen dev` says it took: reading and validating the content, and handing it over to
// the dev server (the rest is Node rendering and the browser). Asserts nothing on time.
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { type Page, test } from '@playwright/test'
import { type DevServer, startDev } from '../tests-dev/devServer'

const SAMPLES = Number(process.env.BENCH_DEV_SAMPLES || 5)
const STARTS = Number(process.env.BENCH_DEV_STARTS || 3)
const WARM_UP = 1
const SIZES = (process.env.BENCH_DEV_ARTICLES || '0 5000').split(/\s+/).filter(Boolean).map(Number)

const ARTICLE = 'dashboards-nobody-opens-and-how-to-fix-them'
const ABOUT_TITLE = 'Engineering the future of business since 2019'
const COPYRIGHT = '© 2025 Nordvale Technologies OÜ. All rights reserved.'

/** One kind of save: the page it is watched on, and the edit that makes `words` appear. */
interface Scenario {
  name: string
  path: string
  /** Makes the `i`th edit, whose words are returned. */
  save(dev: DevServer, i: number): string
}

const scenarios: Scenario[] = [
  {
    name: "a fixed page's YAML",
    path: '/about/',
    save(dev, i) {
      const next = `Engineering the future of business, edit ${i}`
      dev.edit('pages/about.yaml', (text) => text.replace(/^(\s*title: )Engineering the future of business.*$/m, `$1${next}`))
      return next
    },
  },
  {
    name: "the open article's body",
    path: `/insights/${ARTICLE}/`,
    save(dev, i) {
      const next = `A sentence added by edit ${i} of the benchmark.`
      dev.edit(`articles/${ARTICLE}.md`, (text) =>
        text.replace(/^## Start from the decision\n(\nA sentence added by edit \d+ of the benchmark\.\n)?/m, `## Start from the decision\n\n${next}\n`),
      )
      return next
    },
  },
  {
    name: 'a new article on the open listing',
    path: '/insights/',
    save(dev, i) {
      const title = `A new article written by save ${i}`
      const source = readFileSync(`${dev.contentDir}/articles/${ARTICLE}.md`, 'utf8')
      const text = source
        .replace(/^title: .*$/m, `title: ${title}`)
        .replace(/^date: .*$/m, `date: 2026-01-${String(i + 1).padStart(2, '0')}`)
        .replace(/^featured: .*$/m, 'featured: false')
      dev.write(`articles/bench-new-${i}.md`, text)
      return title
    },
  },
  {
    name: 'site.yaml (every page)',
    path: '/about/',
    save(dev, i) {
      const next = `© 2025 Nordvale Technologies OÜ, edit ${i}.`
      dev.edit('site.yaml', (text) => text.replace(/^(\s*copyright: ).*$/m, `$1${next}`))
      return next
    },
  },
]

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length / 2
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const ms = (n: number) => `${Math.round(n)} ms`

/** How long a save may take to show before the benchmark fails, naming it (instead of waiting out the test). */
const SHOWN_WITHIN_MS = 30_000

/** The time from `save()` until a load of `page` shows `words`. */
async function saveToVisible(page: Page, save: () => string): Promise<number> {
  let words = ''
  const shown = new Promise<number>((resolve) => {
    const onLoad = async () => {
      const at = performance.now()
      const text = await page.evaluate(() => document.body.innerText).catch(() => '')
      if (words && text.includes(words)) {
        page.off('domcontentloaded', onLoad)
        resolve(at)
      }
    }
    page.on('domcontentloaded', onLoad)
  })
  const saved = performance.now()
  words = save()
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the save was not shown within ${SHOWN_WITHIN_MS} ms: "${words}"`)), SHOWN_WITHIN_MS)
  })
  const elapsed = (await Promise.race([shown, late]).finally(() => clearTimeout(timer))) - saved
  await page.waitForLoadState('load')
  // Let the reloaded page's own scripts settle before the next edit.
  await page.waitForTimeout(500)
  return elapsed
}

/** Asks for `/` until it is answered: the time from the start of `sitegen dev`. */
async function firstPage(dev: DevServer): Promise<number> {
  for (;;) {
    const response = await fetch(new URL('/', dev.url)).catch(() => undefined)
    if (response?.ok) {
      await response.text()
      return performance.now() - dev.startedAt
    }
    // Its children stop with it: a dev server that is gone answers no more.
    if (dev.processes().length === 0) throw new Error(`sitegen dev exited before its first page:\n${dev.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

for (const articles of SIZES) {
  test(`save to visible with sitegen dev, ${articles} extra articles`, async ({ page }) => {
    test.setTimeout(900_000)
    const load = `load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`
    // A start is one sample of a noisy figure: the first page is timed over several, the last of
    // which goes on to the saves.
    const starts: number[] = []
    for (let i = 1; i < STARTS; i++) {
      const dev = await startDev({ articles })
      try {
        starts.push(await firstPage(dev))
      } finally {
        await dev.stop()
      }
    }
    const dev = await startDev({ articles })
    try {
      starts.push(await firstPage(dev))
      const lines = [`sitegen dev with ${articles} extra articles (${load}):`]
      lines.push(
        `  first page answered ${ms(median(starts))} after the start, median of ${STARTS} starts (target 3000 ms at 5,000 articles); ` +
          `samples ${starts.map(ms).join(', ')}`,
      )
      for (const scenario of scenarios) {
        await page.goto(new URL(scenario.path, dev.url).href)
        await page.waitForLoadState('load')
        const samples: number[] = []
        const read: number[] = []
        const handedOver: number[] = []
        for (let i = 0; i < WARM_UP + SAMPLES; i++) {
          const before = dev.output().length
          const elapsed = await saveToVisible(page, () => scenario.save(dev, i))
          if (i < WARM_UP) continue
          samples.push(elapsed)
          // What sitegen itself took of it, as it prints each save (src/dev/mod.rs): a line
          // reworded there stops the benchmark here rather than leaving its figures out.
          const taken = [...dev.output().slice(before).matchAll(/read in (\d+) ms, handed over in (\d+) ms/g)].at(-1)
          if (!taken) throw new Error(`sitegen dev printed no "read in N ms, handed over in M ms" for the save:\n${dev.output().slice(before)}`)
          read.push(Number(taken[1]))
          handedOver.push(Number(taken[2]))
        }
        const sitegen = `; of which sitegen read the content in ${ms(median(read))} and handed it over in ${ms(median(handedOver))}`
        lines.push(
          `  save to visible, ${scenario.name}: median ${ms(median(samples))} over ${SAMPLES} saves (target 500 ms)${sitegen}; ` +
            `samples ${samples.map(ms).join(', ')}`,
        )
      }
      const memory = dev.memory()
      lines.push(
        `  memory of its processes: ${Math.round(memory.now)} MB now, ${Math.round(memory.peak)} MB of peaks (target under 600 MB at 5,000 articles)`,
      )
      console.log(lines.join('\n'))
    } finally {
      await dev.stop()
    }
  })
}
