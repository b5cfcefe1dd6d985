import type { PageContextServer } from 'vike/types'
import { iconsIn } from '../lib/icons.server'
import { picturesIn } from '../lib/pictures.server'

// Runs at build time for every page, after its `+data` hook: resolves the content icons and the
// encoded photos the page's data names, so the prerender draws just those
// (components/icons/ContentIcon.tsx, components/ui/Picture.tsx).
export function onBeforeRender(pageContext: PageContextServer) {
  return { pageContext: { icons: iconsIn(pageContext.data), pictures: picturesIn(pageContext.data) } }
}
