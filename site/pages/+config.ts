import vikeReact from 'vike-react/config'
import type { Config } from 'vike/types'

// Every route is rendered to static HTML by `sitegen build`: its render workers (render/) call
// Vike's server rendering of the built bundle for each route the content model publishes and
// write the pages themselves (directory style: /about -> about/index.html, the error page ->
// 404.html).
//
// Pages are HTML-only (https://vike.dev/render-modes): React renders them at build time and
// no framework reaches the browser. `Page` and `Layout` load on the server only, so Vike ships
// neither its client runtime nor page context; the browser gets +client.ts, which binds the
// small enhancements the HTML names (enhance/) and the React islands (islands/). Moving
// between pages is a full page load. With client routing off there is no per-page
// `pageContext.json` either: one HTML file per page.
export default {
  extends: [vikeReact],
  clientRouting: false,
  favicon: '/favicon.svg',
  meta: {
    Page: { env: { server: true, client: false } },
    Layout: { env: { server: true, client: false } },
    // Read from the content when the page is rendered; without client routing the browser never
    // needs it again.
    lang: { env: { server: true, client: false } },
    htmlAttributes: { env: { server: true, client: false } },
  },
} satisfies Config
