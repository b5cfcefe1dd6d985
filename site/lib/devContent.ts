// The dev server's side of `sitegen dev`: reload open pages when the content changes, and show
// content mistakes in Vite's error overlay.
//
// `sitegen dev` watches content/, validates every save and then writes, in this order, a status
// file (`$SITEGEN_DEV_STATUS`: `{"errors": [...]}`) and, when the content is valid, the content
// JSON (`$SITEGEN_CONTENT`). A new content JSON reloads the open pages it changes: each page
// tells the plugin its path (`sitegen:open`, from a module injected into every page), and after
// a save a page reloads only when the hash of its inputs changed, the same hash by which a build
// decides to render it again (render/entry.server.ts). A status with errors shows them in the
// overlay (also to pages opened later) while the last good content keeps rendering, and the
// content that fixes them reloads every open page. Before the content JSON it writes the list
// of the photos and social cards it encoded into the build cache (`$SITEGEN_DEV_FILES`:
// `{"/img/...": "/path/in/the/cache"}`), which this plugin serves under `/img/`; a social card
// still being drawn is `null` there until it is, and a request for it waits. Without
// `sitegen dev` (`make content` + `npm run dev`) the reload works alone. A page request is
// answered as the published site answers it: the content's redirects first
// (`$SITEGEN_DEV_REDIRECTS`, the `_redirects` a build would write), then the page at its
// published URL, with the slash Vike would otherwise redirect away.
import { createReadStream, existsSync, readFileSync, watch } from 'node:fs'
import path from 'node:path'
import type { ServerResponse } from 'node:http'
import type { Connect, ErrorPayload, Plugin, ViteDevServer, WebSocketClient } from 'vite'
import type { SiteContent } from '../schema/SiteContent'
import { currentContent, setContent, translationAt } from './contentGlobal.ts'

/** One content mistake, as `sitegen dev` writes it into the status file. */
interface ContentMistake {
  /** `content/pages/home.yaml:12:5: hero: unknown field ...` */
  text: string
  file: string
  line?: number
  column?: number
}

function readMistakes(statusFile: string | undefined): ContentMistake[] {
  if (!statusFile) return []
  try {
    const status = JSON.parse(readFileSync(statusFile, 'utf8')) as { errors?: ContentMistake[] }
    return status.errors ?? []
  } catch {
    // Missing (not written yet) or being replaced: no news.
    return []
  }
}

function overlay(mistakes: ContentMistake[]): ErrorPayload {
  const first = mistakes[0]
  return {
    type: 'error',
    err: {
      plugin: 'sitegen',
      message: mistakes.map((m) => m.text).join('\n'),
      stack: '',
      ...(first && {
        id: first.file,
        loc: { file: first.file, line: first.line ?? 1, column: first.column ?? 1 },
      }),
    },
  }
}

/** The MIME type of each format the pictures are published in. */
const PICTURE_TYPES: Record<string, string> = {
  '.avif': 'image/avif',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
}

/** How long a request for a card still being drawn waits for it, and how often it looks. */
const CARD_WAIT_MS = 30_000
const CARD_POLL_MS = 100

/** The file `sitegen dev` lists for `url`: a path, `null` while it is being drawn, or none. */
function listedFile(filesFile: string, url: string): string | null | undefined {
  try {
    const files = JSON.parse(readFileSync(filesFile, 'utf8')) as Record<string, string | null>
    return files[url]
  } catch {
    // Being replaced: as for a picture still being made.
    return null
  }
}

/** Serves the pictures `sitegen dev` lists in `filesFile`, read again on every request. */
function servePictures(filesFile: string): Connect.NextHandleFunction {
  return async (req, res, next) => {
    const url = req.url?.split('?')[0] ?? ''
    if (!url.startsWith('/img/')) return next()
    let file = listedFile(filesFile, url)
    for (let waited = 0; file === null && waited < CARD_WAIT_MS; waited += CARD_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, CARD_POLL_MS))
      file = listedFile(filesFile, url)
    }
    if (!file) return next()
    res.setHeader('Content-Type', PICTURE_TYPES[path.extname(url)] ?? 'application/octet-stream')
    res.setHeader('Cache-Control', 'no-cache')
    createReadStream(file).on('error', next).pipe(res)
  }
}

/** A rule of `_redirects`: `/old/ /new/ 301`, or `/gone/ /404.html 410`. */
interface RedirectRule {
  to: string
  status: number
}

/**
 * The rule of the `_redirects` file `sitegen dev` writes (as a build does: the aliases,
 * redirects.yaml and the pages that expired) for the request path `path`, read again on every
 * page request; the not-found rules of the other languages (404) are the renderer's own.
 */
function redirectFor(redirectsFile: string, path: string): RedirectRule | undefined {
  let text: string
  try {
    text = readFileSync(redirectsFile, 'utf8')
  } catch {
    // Not written yet, or being replaced: no rule.
    return undefined
  }
  for (const line of text.split('\n')) {
    const [from, to, status] = line.split(' ')
    if (from === path && to !== undefined && (status === '301' || status === '410')) return { to, status: Number(status) }
  }
  return undefined
}

/**
 * Answers a page request the way `sitegen serve` and the CDN do, before the renderer sees it: an
 * old path with a 301 to its page, a page that is gone with 410 and the not-found page, and a
 * page's published URL (`/et/insights/`, with its slash) with the page itself, where Vike would
 * answer a 301 to the form without the slash. Returns the path the renderer is to render, or
 * undefined when the request is answered.
 */
function asPublished(req: Connect.IncomingMessage, res: ServerResponse, redirectsFile: string | undefined): string | undefined {
  const [path = '/', query] = (req.url ?? '/').split(/\?(.*)/s)
  const rule = redirectsFile ? redirectFor(redirectsFile, path) : undefined
  if (rule?.status === 301) {
    res.writeHead(301, { Location: rule.to, 'Cache-Control': 'no-cache' }).end()
    return undefined
  }
  if (rule?.status === 410) {
    // The renderer answers the path with the not-found page, and 410 instead of its 404.
    const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse
    res.writeHead = ((_status: number, ...rest: unknown[]) => writeHead(410, ...rest)) as typeof res.writeHead
  }
  if (path === '/' || !path.endsWith('/')) return path
  const bare = path.replace(/\/+$/, '')
  const url = query === undefined ? bare : `${bare}?${query}`
  req.url = url
  ;(req as { originalUrl?: string }).originalUrl = url
  return bare
}

/** The content loaded last, with its translations. */
let loaded: SiteContent | undefined

/** The content loaded last, with its translations (the editor's preview takes its pictures). */
export function loadedContent(): SiteContent | undefined {
  return loaded
}

/**
 * Makes the content of the language `path` is published in (a translation's for `/et/...`) the
 * one the renderer reads, as a build's render worker does before each page.
 */
function showLanguageOf(path: string) {
  if (loaded) setContent(translationAt(loaded, path) ?? loaded)
}

/** Runs `read` (synchronous) with the content of the language of `path`, then puts back the one before. */
function inLanguageOf<T>(path: string, read: () => T): T {
  const before = currentContent()
  showLanguageOf(path)
  try {
    return read()
  } finally {
    if (before) setContent(before)
  }
}

/**
 * The dev server renders one page at a time, each with the content of its own language: the
 * renderer reads one content (a global of the process), which a page of another language
 * rendering meanwhile would change under it. A new content is put in place between two renders
 * too, never during one: a page whose data was read from one content and whose head named the
 * next would never be told to reload. A render that has not answered in this long lets the next
 * one go, so that one broken page holds up no other.
 */
const RENDER_TURN_MS = 15_000
let turns: Promise<void> = Promise.resolve()

/** Whether `req` asks for a page (which the renderer may answer) rather than a module or a file. */
function asksForAPage(req: Connect.IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  const path = req.url?.split('?')[0] ?? ''
  return !path.startsWith('/@') && !path.slice(path.lastIndexOf('/') + 1).includes('.')
}

/** Each part of the content `sitegen dev` wrote, by field: its files and what they hold. */
let parts = new Map<string, { files: string; value: unknown }>()
/** What each piece of a part cut in pieces holds, by its file. */
let pieces = new Map<string, unknown>()

/** Counts the contents loaded: a page names the one it was rendered with. */
let contentVersion = 0

/** A part from its pieces, in order: arrays joined into one, objects into one. */
function joinPieces(held: unknown[]): unknown {
  return Array.isArray(held[0]) ? (held as unknown[][]).flat() : Object.assign({}, ...held)
}

/**
 * Hands the content JSON to the renderer (the dev server renders in this process). `sitegen dev`
 * writes it in parts, a part's file named for its bytes, and a large part (the routes, articles
 * and cards of an archive) in pieces to be joined in order, each an array or an object
 * (`{"$parts": {"pages": "parts/pages.<hash>.json", "routes": ["parts/routes.<hash>.json",
 * ...]}}`): only the files that changed are parsed again, and a part whose files did not change
 * stays the same object, so the indexes the pages keep of it (routes, articles) stay valid.
 * `sitegen export` writes the whole content in one file.
 */
function loadContent(contentFile: string) {
  const json = JSON.parse(readFileSync(contentFile, 'utf8')) as SiteContent | { $parts: Record<string, string | string[]> }
  if (!('$parts' in json)) {
    loaded = json
    setContent(json)
    return
  }
  const read = (file: string): unknown => JSON.parse(readFileSync(path.resolve(path.dirname(contentFile), file), 'utf8'))
  const nextParts = new Map<string, { files: string; value: unknown }>()
  const nextPieces = new Map<string, unknown>()
  for (const [field, named] of Object.entries(json.$parts)) {
    const files = typeof named === 'string' ? named : named.join('\n')
    const known = parts.get(field)
    let value: unknown
    if (typeof named === 'string') {
      value = known?.files === files ? known.value : read(named)
    } else {
      // Each piece is parsed once, and stays known while the newest content names it.
      const held = named.map((file) => pieces.get(file) ?? read(file))
      named.forEach((file, i) => nextPieces.set(file, held[i]))
      value = known?.files === files ? known.value : joinPieces(held)
    }
    nextParts.set(field, { files, value })
  }
  parts = nextParts
  pieces = nextPieces
  loaded = Object.fromEntries([...nextParts].map(([field, { value }]) => [field, value])) as SiteContent
  setContent(loaded)
}

/**
 * How long after a new content the garbage of the one it replaced is collected, when Node
 * exposes its collector (`sitegen dev` starts it with `--expose-gc`): by then the reloaded pages
 * have rendered. Left to itself, V8 let that garbage grow the heap: at 5,000 articles, two dozen
 * saves took the dev server from 330 MB to 430-490 MB while 80 MB of its heap was in use. A
 * collection pauses it for 35-130 ms.
 */
const COLLECT_AFTER_MS = 1_000
let collecting: ReturnType<typeof setTimeout> | undefined

/** Collects the garbage of the contents replaced so far, once, `COLLECT_AFTER_MS` from now. */
function collectSoon() {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc || collecting) return
  collecting = setTimeout(() => {
    collecting = undefined
    gc()
  }, COLLECT_AFTER_MS)
  collecting.unref()
}

/** What a page sends when it opens, and what the plugin sends a page to reload. */
const OPEN_EVENT = 'sitegen:open'
const RELOAD_EVENT = 'sitegen:reload'
/** The query parameter of the module's URL naming the content the page was rendered with. */
const VERSION_PARAM = 'content'

/** What a page tells the plugin: the path it shows and the content version it was rendered with. */
interface OpenMessage {
  path: string
  version: string | null
}

/** The module every page loads in the dev server, to say which page it shows and to reload. */
const DEV_CLIENT = 'virtual:sitegen-dev-client'
const DEV_CLIENT_CODE = `
const version = new URL(import.meta.url).searchParams.get(${JSON.stringify(VERSION_PARAM)})
if (import.meta.hot) {
  import.meta.hot.on(${JSON.stringify(RELOAD_EVENT)}, () => location.reload())
  import.meta.hot.send(${JSON.stringify(OPEN_EVENT)}, { path: location.pathname, version })
}
`

/** What a page told the plugin it shows, and the hash of its inputs (none: unknown). */
interface OpenPage {
  path: string
  hash: string | undefined
}

/** The hash of the inputs of the page at `path` under the content now loaded (none if not known). */
async function inputsHash(server: ViteDevServer, path: string): Promise<string | undefined> {
  try {
    const entry = (await server.ssrLoadModule('/render/entry.server.ts')) as typeof import('../render/entry.server')
    return inLanguageOf(path, () => entry.inputsHash(path).hash)
  } catch {
    return undefined
  }
}

/** Reloads the open pages on a new content JSON and shows content mistakes as Vite's overlay. */
export function reloadOnContent(
  contentFile: string,
  statusFile = process.env.SITEGEN_DEV_STATUS,
  filesFile = process.env.SITEGEN_DEV_FILES,
  redirectsFile = process.env.SITEGEN_DEV_REDIRECTS,
): Plugin {
  const watched = new Set([contentFile, statusFile].filter((f): f is string => Boolean(f)))
  let mistakes = readMistakes(statusFile)
  /** Whether the open pages show the overlay: the content that clears it reloads them all. */
  let overlaid = false
  const open = new Map<WebSocketClient, OpenPage>()
  return {
    name: 'sitegen:reload-on-content',
    apply: 'serve',
    resolveId: (id) => (id.split('?')[0] === DEV_CLIENT ? `\0${id}` : undefined),
    load: (id) => (id.split('?')[0] === `\0${DEV_CLIENT}` ? DEV_CLIENT_CODE : undefined),
    // Vike puts what this adds to the head of every page it renders in the dev server.
    transformIndexHtml: () => [
      {
        tag: 'script',
        attrs: { type: 'module', src: `/@id/__x00__${DEV_CLIENT}?${VERSION_PARAM}=${contentVersion}` },
        injectTo: 'head',
      },
    ],
    configureServer(server) {
      // `sitegen dev` (which names a status file) starts this server while it reads the content
      // and writes the content JSON once it has; requests wait for it. Alone, the file must be
      // there.
      let arrived = () => {}
      const content = new Promise<void>((resolve) => (arrived = resolve))
      /** Whether no content has arrived yet. */
      let first = true
      if (existsSync(contentFile)) {
        loadContent(contentFile)
        first = false
        arrived()
      } else if (!statusFile) {
        throw new Error(
          `Content file not found: ${contentFile}\n` +
            'Generate it with `make content` (or `target/debug/sitegen export`), or use `sitegen dev`.',
        )
      }
      server.middlewares.use((req, res, next) => {
        if (!asksForAPage(req)) return void content.then(() => next())
        const path = asPublished(req, res, redirectsFile)
        if (path === undefined) return
        const turn = () =>
          new Promise<void>((done) => {
            const timer = setTimeout(done, RENDER_TURN_MS)
            const end = () => {
              clearTimeout(timer)
              done()
            }
            res.once('finish', end)
            res.once('close', end)
            showLanguageOf(path)
            next()
          })
        turns = turns.then(() => content).then(turn, turn)
      })
      if (filesFile) server.middlewares.use(servePictures(filesFile))
      const remember = async (data: OpenMessage, client: WebSocketClient) => {
        await content
        const version = contentVersion
        const hash = data.version === String(version) ? await inputsHash(server, data.path) : undefined
        if (data.version !== String(version) || contentVersion !== version) {
          // Rendered with, or hashed under, a content older than the one loaded now.
          client.send(RELOAD_EVENT)
          return
        }
        open.set(client, { path: data.path, hash })
        client.socket.once('close', () => open.delete(client))
      }
      const logged = (error: unknown) => server.config.logger.error(`sitegen dev: ${String(error)}`)
      server.ws.on(OPEN_EVENT, (data: OpenMessage, client: WebSocketClient) => {
        remember(data, client).catch(logged)
      })
      const reloadChanged = async () => {
        if (overlaid) {
          // Reloading clears the overlay the fixed mistake left on every page.
          overlaid = false
          server.ws.send({ type: 'full-reload', path: '*' })
          return
        }
        for (const [client, page] of open) {
          const hash = await inputsHash(server, page.path)
          if (hash === undefined || hash !== page.hash) {
            open.delete(client)
            client.send(RELOAD_EVENT)
          }
        }
      }
      const swap = () => {
        try {
          loadContent(contentFile)
        } catch {
          // Being replaced: the next event brings the whole file.
          return
        }
        first = false
        contentVersion += 1
        arrived()
        reloadChanged().catch(logged)
        collectSoon()
      }
      const onFile = (file: string) => {
        if (!watched.has(file)) return
        mistakes = readMistakes(statusFile)
        if (file === contentFile) {
          // The next render reads the new content; then the open pages it changes reload. The
          // first content goes in at once: every render waits for it.
          if (first) swap()
          else turns = turns.then(swap, swap)
        } else if (mistakes.length > 0) {
          overlaid = true
          server.ws.send(overlay(mistakes))
        }
      }
      // Both files are replaced by a rename, which inotify tells of at once; Vite's watcher
      // looks at each file first and told of a new content 20-70 ms later at 5,000 articles.
      for (const dir of new Set([...watched].map((file) => path.dirname(file)))) {
        watch(dir, (_event, name) => {
          if (name) onFile(path.join(dir, name))
        }).unref()
      }
      if (!existsSync(contentFile)) {
        // A file written before the watcher was ready raises no event: look for it until it is.
        const poll = setInterval(() => {
          if (existsSync(contentFile)) onFile(contentFile)
        }, 100)
        void content.then(() => clearInterval(poll))
      }
      // A page opened (or reloaded) while the content is broken shows the mistakes too.
      server.ws.on('connection', (socket) => {
        if (mistakes.length > 0) socket.send(JSON.stringify(overlay(mistakes)))
      })
    },
  }
}
