import vikeReact from 'vike-react/config'
import type { Config } from 'vike/types'

// Every route is prerendered to static HTML (directory style: /about -> about/index.html, and
// the error page -> 404.html); sitegen publishes the result.
//
// Pages are HTML-only (https://vike.dev/render-modes): React renders them at build time and
// no framework reaches the browser. `Page` and `Layout` load on the server only, so Vike ships
// neither its client runtime nor page context; the browser gets +client.ts, which binds the
// small enhancements the HTML names (enhance/) and the React islands (islands/). Moving
// between pages is a full page load. With client routing off the prerender writes no
// per-page `pageContext.json` either: one HTML file per page, rendered concurrently (Vike's
// `prerender.parallel` default, one at a time per CPU).
export default {
  extends: [vikeReact],
  prerender: true,
  clientRouting: false,
  favicon: '/favicon.svg',
  meta: {
    Page: { env: { server: true, client: false } },
    Layout: { env: { server: true, client: false } },
  },
} satisfies Config
