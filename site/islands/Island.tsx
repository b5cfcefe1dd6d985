import type { ComponentType } from 'react'
import { enhance } from '../enhance/modules'
import { siteSettings } from '../lib/settings'
import { type IslandName, type IslandProps, islandComponents } from './components'

export type IslandOptions<N extends IslandName> = {
  name: N
  /** What the component is rendered with, here and again in the browser. */
  props: IslandProps<N>
  /**
   * When the browser hydrates it: on `interaction` (focus or pointer inside it), or also as soon
   * as the browser is `idle` (for a page whose point is the island).
   */
  hydrate: 'interaction' | 'idle'
}

/** Keeps the JSON inert inside `<script>`: no `</script>` or `<!--` can appear in it. */
function serialize(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

/**
 * A React island: the component's server HTML, which works on its own (a form posts without
 * script), and its props as JSON beside it. The `island` enhancement (enhance/IslandLoader.ts)
 * loads React and the component only when the visitor reaches for it, then hydrates this HTML
 * with the same props (islands/hydrate.tsx).
 */
export function Island<N extends IslandName>({ name, props, hydrate }: IslandOptions<N>) {
  // One of the island components, called with its own props (the name ties them together).
  const Component = islandComponents[name] as ComponentType<Record<string, unknown>>
  return (
    <>
      <div
        {...enhance('island')}
        data-island={name}
        data-hydrate={hydrate}
        data-toasts-label={siteSettings().ui.notifications_label}
      >
        <Component {...(props as Record<string, unknown>)} />
      </div>
      <script type="application/json" data-island-props="" dangerouslySetInnerHTML={{ __html: serialize(props) }} />
    </>
  )
}
