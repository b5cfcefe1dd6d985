// The page context of the editor's preview (lib/devPreview.ts), made by the code that makes a
// built page's: the page's `+data` (lib/pageData.server.ts) and `+onBeforeRender` (its icons and
// pictures), over the content sitegen loaded with the entry in it; and the frame of that
// content (lib/settings.ts) that the page's components read besides their data. Loaded in the
// dev server only, never by a page.
import type { PageContextServer } from 'vike/types'
import { onBeforeRender } from '../pages/+onBeforeRender'
import { type PageKind, type ParamsOf, pathOf } from '../lib/content.server'
import { currentContent, setContent } from '../lib/contentGlobal'
import { dataAtPath } from '../lib/pageData.server'
import { type Frame, frameContent } from '../lib/settings'
import type { SiteContent } from '../schema/SiteContent'

/**
 * What the components of the page of kind `kind` with `params` read when `content` is the
 * site's content: its page context (`useData()`, `usePageContext()`), and the frame
 * (`siteSettings()`: the islands' labels, the contact page's addresses). The dev server's own
 * content is put back before this returns: it is synchronous, so no page render sees the
 * preview's.
 */
export function previewPageContext(
  content: SiteContent,
  kind: PageKind,
  params: Record<string, string | number>,
): { pageContext: Record<string, unknown>; frame: Frame } {
  const before = currentContent()
  setContent(content)
  try {
    // sitegen names the kind and its parameters together (cms/preview.rs).
    const urlPathname = pathOf(kind, params as ParamsOf<typeof kind>)
    const data = dataAtPath(urlPathname)
    const { pageContext } = onBeforeRender({ data } as PageContextServer)
    return { pageContext: { urlPathname, data, ...pageContext }, frame: frameContent() }
  } finally {
    if (before) setContent(before)
  }
}
