import type { PageContextServer } from 'vike/types'
import { iconsIn } from '../lib/icons.server'

// Runs at build time for every page, after its `+data` hook: resolves the content icons the
// page's data names, so the prerender draws just those (components/icons/ContentIcon.tsx).
export async function onBeforeRender(pageContext: PageContextServer) {
  return { pageContext: { icons: await iconsIn(pageContext.data) } }
}
