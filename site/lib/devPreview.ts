// The editor's preview in `sitegen dev`: the page of the entry being edited, as a build would
// render it, for the preview pane (admin/preview.tsx) to draw with the site's own components.
//
// The pane posts the entry as the editor holds it to `POST /admin/preview`. sitegen dev answers
// with the entry's language of the content as a build would load it with the entry in it
// (sitegen/src/cms/preview.rs: the body rendered by sitegen's Markdown renderer, validated by
// its validation). Here, in the dev server, that content goes through the page's own `+data` and
// `+onBeforeRender` code (admin/previewPage.server.ts), and the pane gets the page context the
// page's components read: `{ urlPathname, data, pictures, icons }`, with the frame
// (`siteSettings()`) of the entry's language. The pictures are the dev server's, encoded
// already: the preview names the same paths.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ViteDevServer } from 'vite'
import type { EntryPage, PreviewPage } from '../admin/previewPage.server.ts'
import type { SiteContent } from '../schema/SiteContent'
import { PREVIEW_PATH } from '../admin/endpoints.ts'
import { loadedContent } from './devContent.ts'

/** What sitegen dev answers: the content and the page to render, or the entry's mistakes. */
type SitegenPreview =
  | { kind: string; params: Record<string, string | number>; content: SiteContent }
  | { errors: string[] }
  | { error: string }

/**
 * What the pane asks: the entry as the editor holds it (what sitegen dev reads, cms/preview.rs),
 * and which of the entry's pages to show (a service category's sub-service), else its own.
 */
export type PreviewRequest = Record<string, unknown> & { page?: Pick<EntryPage, 'kind' | 'params'> }

/**
 * What the pane gets: the page shown (its kind names its component: `article`, `about`,
 * `sub-service`), every page of the entry, the page's context and the frame of its content (the
 * settings of its language); or what is wrong with the entry.
 */
export type PreviewAnswer = PreviewPage | { errors: string[] }

/** The dev server's encoded pictures and social cards of `content`'s language, put into it. */
function withDevPictures(content: SiteContent): SiteContent {
  const loaded = loadedContent()
  if (!loaded) return content
  const language = content.settings.language
  const same = [loaded, ...(loaded.translations ?? [])].find((c) => c.settings.language === language) ?? loaded
  return { ...content, images: same.images, cards: same.cards, search_index_path: same.search_index_path }
}

function answer(res: ServerResponse, status: number, body: PreviewAnswer) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(body))
}

/** Answers the pane's `POST /admin/preview` with the entry's page context. */
export async function preview(server: ViteDevServer, api: string, req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  let request: PreviewRequest
  try {
    request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PreviewRequest
  } catch (error) {
    return answer(res, 400, { errors: [`The preview's request is not JSON: ${String(error)}`] })
  }
  const { page: wanted, ...entry } = request
  let sitegen: SitegenPreview
  try {
    const response = await fetch(new URL(PREVIEW_PATH, api), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(entry),
    })
    sitegen = (await response.json()) as SitegenPreview
  } catch (error) {
    return answer(res, 502, { errors: [`sitegen dev did not answer: ${String(error)}`] })
  }
  if ('error' in sitegen) return answer(res, 422, { errors: [sitegen.error] })
  if ('errors' in sitegen) return answer(res, 200, { errors: sitegen.errors })
  try {
    const page = (await server.ssrLoadModule('/admin/previewPage.server.ts')) as typeof import('../admin/previewPage.server')
    const kind = sitegen.kind as Parameters<typeof page.previewPageContext>[1]
    answer(res, 200, page.previewPageContext(withDevPictures(sitegen.content), kind, sitegen.params, wanted))
  } catch (error) {
    answer(res, 200, { errors: [error instanceof Error ? error.message : String(error)] })
  }
}
