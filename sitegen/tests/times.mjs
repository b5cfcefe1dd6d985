#!/usr/bin/env node
// `make test-times`: where the time of `make test` goes. Reads what the last `make test` left in
// target/test-times/ and target/nextest/ and prints, in this order:
//   - each phase's wall time (phases.tsv, written by the Makefile's `timed`),
//   - each Rust test binary's and each Playwright file's summed test time,
//   - the twenty slowest tests of every suite together,
//   - the full builds the suites ran (builds.jsonl, one line per build: SITEGEN_BUILD_LOG),
//     by size.
// No dependencies: the run's files are nextest's JUnit XML, Playwright's JSON report and lines
// of text, read with the standard library.
import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')
const times = path.join(root, 'target/test-times')
const junit = path.join(root, 'target/nextest/default/junit.xml')

const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7)
const table = (title, rows) => {
  if (rows.length === 0) return
  console.log(`\n${title}`)
  const width = Math.max(...rows.map(([name]) => name.length))
  for (const [name, ms, extra = ''] of rows) console.log(`  ${name.padEnd(width)} ${seconds(ms)} s${extra}`)
}
const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')

// The phases, in the order they ran.
const phases = read(path.join(times, 'phases.tsv'))
  .split('\n')
  .filter(Boolean)
  .map((line) => line.split('\t'))
  .map(([name, ms]) => [name, Number(ms)])
const total = phases.reduce((sum, [, ms]) => sum + ms, 0)
table('Phases (wall time)', [...phases, ['total', total]])

/** Every test as [suite, name, ms]. */
const tests = []

// nextest's JUnit: one <testsuite> per test binary, one <testcase> per test. The attributes are
// written by nextest in a fixed form (quick-xml), so a pattern reads them.
const attr = (tag, name) => tag.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1] ?? ''
const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&')
for (const tag of read(junit).match(/<testcase\b[^>]*>/g) ?? []) {
  tests.push([unescape(attr(tag, 'classname')), unescape(attr(tag, 'name')), Number(attr(tag, 'time')) * 1000])
}

// Playwright's JSON report of each configuration: suites (files, then describe blocks) of specs,
// each spec's tests (one per project) with their results (one per attempt).
function walk(suite, file, project) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      const ms = (test.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0)
      tests.push([`${project} ${file}`, spec.title, ms])
    }
  }
  for (const child of suite.suites ?? []) walk(child, file, project)
}
for (const [name, report] of [
  ['playwright', 'playwright.json'],
  ['playwright dev', 'playwright-dev.json'],
]) {
  const text = read(path.join(times, report))
  if (!text) continue
  for (const suite of JSON.parse(text).suites ?? []) walk(suite, suite.file ?? suite.title, name)
}

const bySuite = new Map()
for (const [suite, , ms] of tests) {
  const [sum, count] = bySuite.get(suite) ?? [0, 0]
  bySuite.set(suite, [sum + ms, count + 1])
}
table(
  'Test time by binary or file (summed; tests run side by side, so more than the wall time)',
  [...bySuite].sort((a, b) => b[1][0] - a[1][0]).map(([suite, [ms, count]]) => [suite, ms, `  ${count} tests`]),
)
table(
  'The twenty slowest tests',
  [...tests].sort((a, b) => b[2] - a[2]).slice(0, 20).map(([suite, name, ms]) => [`${suite} :: ${name}`, ms]),
)

// The builds: SITEGEN_BUILD_LOG's lines, grouped by size.
const builds = read(path.join(times, 'builds.jsonl'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
const bySize = new Map()
for (const build of builds) {
  const key = `${build.pages} pages, ${build.articles} articles`
  const [count, rendered, ms] = bySize.get(key) ?? [0, 0, 0]
  bySize.set(key, [count + 1, rendered + build.rendered, ms + build.ms])
}
if (builds.length > 0) {
  const vite = builds.filter((b) => b.bundled).length
  const pictures = builds.reduce((sum, b) => sum + (b.pictures_encoded ?? 0), 0)
  console.log(
    `\nFull builds: ${builds.length} (sitegen build, through the binary or the library); ` +
      `${vite} ran Vite, ${pictures} pictures encoded in all`,
  )
  for (const [size, [count, rendered, ms]] of [...bySize].sort((a, b) => b[1][2] - a[1][2])) {
    console.log(`  ${String(count).padStart(4)} x ${size.padEnd(28)} ${String(rendered).padStart(6)} pages rendered ${seconds(ms)} s`)
  }
}
console.log(`\nLoad average now: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)`)
