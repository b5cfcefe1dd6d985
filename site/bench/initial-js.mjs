// The JavaScript Chromium loads on each route before a visitor touches a form, gzipped, set
// beside what sitegen's size report says for the same route. Used by `make bench-site`, which
// builds the site with `--report-json` and serves it with `sitegen serve`.
//
//   node bench/initial-js.mjs http://127.0.0.1:8092 target/bench/report.json
//
// Each route opens in a fresh page; every JavaScript response is summed, as it is and gzipped
// (node's zlib at its default level), once the page has bound its enhancements
// (`html[data-hydrated]`) and the network is idle. Idle callbacks never run, so /contact's form
// island (hydrated when the browser is idle) stays unloaded, as before a visitor reaches for it.
// Exits non-zero when a route loads other files than the report counts: the uncompressed sums
// must be equal (gzip figures may differ by a few bytes between zlib implementations).
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../chromium.mjs'

const [origin, reportFile] = process.argv.slice(2)
if (!origin || !reportFile) {
  console.error('usage: node bench/initial-js.mjs ORIGIN REPORT_JSON')
  process.exit(2)
}
const report = JSON.parse(readFileSync(reportFile, 'utf8'))

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
const context = await browser.newContext()
await context.addInitScript(() => {
  window.requestIdleCallback = () => 0
})

const kB = (bytes) => (bytes / 1000).toFixed(1)
console.log('route'.padEnd(52), 'files', 'chromium kB', '(gzip)', ' report kB', '(gzip)')
let mismatches = 0
for (const { route, js } of report.pages) {
  const url = new URL(route, origin).href
  const page = await context.newPage()
  const bodies = []
  page.on('response', (response) => {
    const type = response.request().resourceType()
    if (type === 'script' || response.url().endsWith('.js')) {
      bodies.push(
        response.body().then((body) => ({ url: response.url(), bytes: body.length, gzip: gzipSync(body).length })),
      )
    }
  })
  await page.goto(url)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await page.waitForLoadState('networkidle')
  const files = [...new Map((await Promise.all(bodies)).map((b) => [b.url, b])).values()]
  const bytes = files.reduce((sum, b) => sum + b.bytes, 0)
  const gzip = files.reduce((sum, b) => sum + b.gzip, 0)
  const same = bytes === js.bytes
  if (!same) mismatches++
  console.log(
    route.padEnd(52),
    String(files.length).padStart(5),
    kB(bytes).padStart(11),
    `(${kB(gzip)})`.padStart(6),
    kB(js.bytes).padStart(10),
    `(${kB(js.gzip)})`.padStart(6),
    same ? '' : '<- differs',
  )
  await page.close()
}
await browser.close()
if (mismatches) {
  console.error(`${mismatches} route(s) load other JavaScript in Chromium than the size report counts`)
  process.exit(1)
}
