import vikeReact from 'vike-react/config'
import type { Config } from 'vike/types'

// Every route is prerendered to static HTML (directory style: /about -> about/index.html, and
// the error page -> 404.html); sitegen publishes the result. Client-side routing stays on, so
// moving between pages swaps only the page, not the layout.
export default {
  extends: [vikeReact],
  prerender: true,
  favicon: '/favicon.svg',
  // The drawings of the content icons each page renders (+onBeforeRender.ts).
  passToClient: ['icons'],
} satisfies Config
