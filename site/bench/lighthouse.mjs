// Lighthouse (mobile defaults: a mid-range phone, simulated slow 4G) over pages of a running
// site, one table row per page: the four category scores (performance, accessibility, best
// practices, SEO), FCP, LCP, TBT and CLS. Used by
// `make bench-lighthouse`, which builds the site and serves it with `sitegen serve`.
//
//   node bench/lighthouse.mjs http://127.0.0.1:8090 / /about /contact
//
// Chromium comes from CHROME_PATH (Debian's /usr/bin/chromium by default). Each page is measured
// LIGHTHOUSE_RUNS times (3 by default) and the median run (by performance score) is shown, as
// Lighthouse advises: single runs vary with the load of the machine.
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumArgs, chromiumPath } from '../chromium.mjs'

const [origin, ...paths] = process.argv.slice(2)
if (!origin || paths.length === 0) {
  console.error('usage: node bench/lighthouse.mjs ORIGIN PATH...')
  process.exit(2)
}

const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs })

const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS || 3))
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const score = (category) => String(Math.round((category.score ?? 0) * 100))

/** One Lighthouse run; a trace Chromium failed to record (NO_NAVSTART, NO_FCP) is run again. */
async function measure(url) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: CATEGORIES, logLevel: 'error' })
    const error = result?.lhr.runtimeError
    if (result && !error) return result.lhr
    if (attempt === 3) throw new Error(`${url}: ${error ? `${error.code} ${error.message}` : 'no result'}`)
  }
}

const rows = []
try {
  for (const path of paths) {
    const measured = []
    for (let i = 0; i < runs; i++) measured.push(await measure(new URL(path, origin).href))
    measured.sort((a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0))
    const { categories, audits } = measured[Math.floor(measured.length / 2)]
    const ms = (id) => `${(audits[id].numericValue / 1000).toFixed(2)} s`
    rows.push([
      path,
      ...CATEGORIES.map((id) => score(categories[id])),
      ms('first-contentful-paint'),
      ms('largest-contentful-paint'),
      `${Math.round(audits['total-blocking-time'].numericValue)} ms`,
      audits['cumulative-layout-shift'].numericValue.toFixed(3),
    ])
  }
} finally {
  await chrome.kill()
}

const header = ['route', 'performance', 'accessibility', 'best practices', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS']
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)))
const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')
console.log(line(header))
for (const row of rows) console.log(line(row))
const below = rows.filter((row) => CATEGORIES.some((_, i) => Number(row[1 + i]) < 100)).map((row) => row[0])
console.log(below.length === 0 ? 'Lighthouse: 100 in all four categories on every page' : `Below 100: ${below.join(', ')}`)
