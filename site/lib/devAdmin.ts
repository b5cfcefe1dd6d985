// The browser editor of the content at `/admin/` of `sitegen dev`: Decap CMS, configured from the
// content model.
//
// `sitegen dev` writes the editor's configuration, generated from the same Rust types and JSON
// Schemas as the validation (`sitegen cms config`), to `$SITEGEN_DEV_CMS_CONFIG` at its start and
// after every valid save. This plugin answers `/admin/` with a page that loads the editor
// (admin/cms.ts) and `/admin/config.json` with that file, and forwards the editor's requests
// (Decap's proxy protocol, at the path of that URL) to `sitegen dev` at `$SITEGEN_DEV_CMS_API`, which
// validates a save and writes only the values changed. Only the dev server has any of it: no page
// of the site imports the editor, so its scripts never reach a visitor, and the page says
// `noindex` besides.
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Plugin } from 'vite'
import { PREVIEW_PATH } from '../admin/endpoints.ts'
import { preview } from './devPreview.ts'

/** The editor's page (admin/index.html, which the live site's build publishes too). */
const ADMIN_PAGE = readFileSync(new URL('../admin/index.html', import.meta.url), 'utf8')

/** The editor's requests, forwarded as they are; the answer comes back as it is. */
async function forward(api: string, req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  try {
    const answer = await fetch(api, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.concat(chunks),
    })
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
    res.end(Buffer.from(await answer.arrayBuffer()))
  } catch (error) {
    res.writeHead(502, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify({ error: `sitegen dev did not answer: ${String(error)}` }))
  }
}

/** Serves `/admin/` and its configuration from `configFile`, when `sitegen dev` names one. */
export function adminPage(
  configFile = process.env.SITEGEN_DEV_CMS_CONFIG,
  api = process.env.SITEGEN_DEV_CMS_API,
): Plugin {
  return {
    name: 'sitegen:admin',
    apply: 'serve',
    configureServer(server) {
      if (!configFile) return
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? ''
        if (path === '/admin') {
          res.writeHead(308, { Location: '/admin/' }).end()
          return
        }
        // The editor posts to the path sitegen dev answers at (its configuration's `proxy_url`).
        if (api && path === new URL(api).pathname && req.method === 'POST') return void forward(api, req, res)
        if (path === PREVIEW_PATH && req.method === 'POST' && api) return void preview(server, api, req, res)
        if (path !== '/admin/' && path !== '/admin/config.json') return next()
        res.setHeader('X-Robots-Tag', 'noindex, nofollow')
        res.setHeader('Cache-Control', 'no-store')
        if (path === '/admin/') {
          // Through Vite's HTML transform: the preview's React components (admin/preview.tsx)
          // need the preamble of @vitejs/plugin-react that it adds.
          void server.transformIndexHtml('/admin/', ADMIN_PAGE).then((html) => {
            res.setHeader('Content-Type', 'text/html; charset=utf-8')
            res.end(html)
          }, next)
          return
        }
        try {
          const config = readFileSync(configFile)
          res.setHeader('Content-Type', 'application/json')
          res.end(config)
        } catch (error) {
          res.statusCode = 503
          res.end(`the editor's configuration is not written yet: ${String(error)}`)
        }
      })
    },
  }
}
