// A render worker of `sitegen build` (sitegen/src/render/mod.rs). sitegen starts a few of these,
// each loading the built server bundle once, and streams requests to them, one JSON object per
// line on stdin, answered in order, one JSON object per line on stdout; an answer with a page's
// HTML names its length in UTF-8 bytes as "html_bytes" and the HTML follows the line as it is:
//
//   {"op":"content","file":F, -> {"ok":true}          the content to render (sitegen's JSON),
//    "scheme":S}                                       and how its reads are named (reads.ts)
//   {"op":"hash","paths":[P]}  -> {"hashes":[H],       what each page renders (entry.server.ts),
//                                  "reads":[[K]]}      and what that read of the content (reads.ts)
//                                                       or {"error":E,"path":P} naming the page
//   {"op":"render","path":P}   -> {"status":S,         the page: Vike's renderPage (via_vike), or
//                                  "html_bytes":N,     for a kind of page it rendered before,
//                                  "via_vike":V,       render/thin.ts, with F parts of the frame
//                                  "parts_once":F,     rendered once (lib/once.server.tsx); W when
//                                  "warning":W} HTML   a kind is left to Vike; then the page's N bytes
//
// A request that fails is answered {"error":E}; the worker then goes on. It exits when stdin
// closes, so it never outlives sitegen. Usage: node worker.mjs BUNDLE_DIR
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { getHeapStatistics } from 'node:v8'

const bundle = process.argv[2]
if (!bundle) {
  console.error('usage: node worker.mjs BUNDLE_DIR')
  process.exit(2)
}

// Only answers go to stdout: anything the pages or Vike log goes to stderr.
const answer = process.stdout.write.bind(process.stdout)
for (const level of ['log', 'info', 'debug', 'warn']) console[level] = console.error.bind(console)
process.stdout.write = process.stderr.write.bind(process.stderr)

// Vike's server entry registers the build; the sitegen entry shares its modules.
const server = path.join(bundle, 'server')
await import(pathToFileURL(path.join(server, 'entry.mjs')).href)
const { renderPage, learn, renderThin, setContent, inputsHash, showLanguageOf } = await import(pathToFileURL(path.join(server, 'sitegen.mjs')).href)

// Every page's modules, loaded now: sitegen starts a first worker while it still reads pictures,
// cards and the search index, and a page kind's first render would otherwise wait for its modules
// to be read and compiled (80 ms of a one-article rebuild at 5,000 articles). A module that fails
// here fails again when its page renders, which names the page.
const entries = path.join(server, 'entries')
for (const entry of readdirSync(entries)) {
  await import(pathToFileURL(path.join(entries, entry)).href).catch(() => {})
}

// Rendering page after page, V8 lets the heap grow far past what is live: measured at 5,000
// articles, 90 MB live and 480 MB in use after 2,000 pages, in every worker of the pool. A
// worker started with --expose-gc (render.rs) collects once its heap has grown this much past
// what was live after the last collection.
const HEAP_SLACK = 96 * 1024 * 1024
let live = 0

function collectWhenGrown() {
  if (!globalThis.gc || getHeapStatistics().used_heap_size < live + HEAP_SLACK) return
  globalThis.gc()
  live = getHeapStatistics().used_heap_size
}

// The content JSON names the articles' bodies file relative to its own folder (so the JSON is the
// same from one build to the next); the pages read it by its absolute path.
function withBodiesAt(folder, content) {
  if (content.article_bodies) content.article_bodies.file = path.resolve(folder, content.article_bodies.file)
  return content
}

function describe(error) {
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}

const everyPageViaVike = process.env.SITEGEN_RENDER === 'vike'

/** The page at `path` through Vike's renderPage: its page context, status and HTML. */
async function viaVike(path) {
  const pageContext = await renderPage({ urlOriginal: path })
  const { httpResponse, errorWhileRendering } = pageContext
  if (errorWhileRendering) throw errorWhileRendering
  if (!httpResponse) throw new Error(`Vike rendered no response for ${path}`)
  return { pageContext, status: httpResponse.statusCode, html: await httpResponse.getBody() }
}

async function handle(request) {
  switch (request.op) {
    case 'content':
      setContent(withBodiesAt(path.dirname(request.file), JSON.parse(readFileSync(request.file, 'utf8'))), request.scheme)
      live = 0
      collectWhenGrown()
      return { ok: true }
    case 'hash': {
      const hashes = []
      const reads = []
      for (const path of request.paths) {
        try {
          const inputs = inputsHash(path)
          hashes.push(inputs.hash)
          reads.push(inputs.reads)
        } catch (error) {
          return { error: describe(error), path }
        }
      }
      collectWhenGrown()
      return { hashes, reads }
    }
    case 'render': {
      showLanguageOf(request.path)
      // A page of a kind Vike rendered before goes the thin way (render/thin.ts), which checks
      // itself against Vike; SITEGEN_RENDER=vike sends every page through Vike.
      const thin = everyPageViaVike ? undefined : await renderThin(request.path, async () => (await viaVike(request.path)).html)
      if (thin !== undefined) {
        collectWhenGrown()
        // With a warning the page is Vike's: the two renderings of it differed.
        return { status: 200, html: thin.html, via_vike: thin.warning !== undefined, parts_once: thin.partsOnce, warning: thin.warning }
      }
      const { pageContext, status, html } = await viaVike(request.path)
      const warning = status === 200 && !everyPageViaVike ? await learn(request.path, pageContext, html) : undefined
      collectWhenGrown()
      return { status, html, via_vike: true, warning }
    }
    default:
      return { error: `unknown request ${JSON.stringify(request.op)}` }
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let reply
  try {
    reply = await handle(JSON.parse(line))
  } catch (error) {
    reply = { error: describe(error) }
  }
  const { html, ...rest } = reply
  // One write: the line, then the HTML as it is.
  answer(typeof html === 'string' ? `${JSON.stringify({ ...rest, html_bytes: Buffer.byteLength(html) })}\n${html}` : `${JSON.stringify(reply)}\n`)
}
