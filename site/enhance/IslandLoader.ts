import type { ComponentType } from 'react'
import type { IslandName } from '../islands/components'
import { islandLoaders } from '../islands/loaders'

/** Runs `callback` once the browser is idle (soon after load where requestIdleCallback is missing). */
function whenIdle(callback: () => void) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 4000 })
  else setTimeout(callback, 1000)
}

/**
 * Hydrates a React island (islands/Island.tsx) when the visitor reaches for it: focus or a
 * pointer inside it, or, with `data-hydrate="idle"`, as soon as the browser is idle. Until
 * then nothing of React is fetched and the server HTML works on its own: a form submitted
 * before hydration is posted the plain way. React, the component and the toasts load together.
 */
export default class IslandLoader {
  private started = false

  constructor(private readonly root: HTMLElement) {
    for (const type of ['focusin', 'pointerover'] as const) {
      root.addEventListener(type, this.start, { passive: true })
    }
    if (root.dataset.hydrate === 'idle') whenIdle(this.start)
    if (root.contains(document.activeElement)) this.start()
  }

  private readonly start = () => {
    if (this.started) return
    this.started = true
    const name = this.root.dataset.island as IslandName
    Promise.all([import('../islands/hydrate'), islandLoaders[name]()])
      .then(([{ hydrate }, Component]) => hydrate(this.root, Component as ComponentType<Record<string, unknown>>))
      .catch((error: unknown) => {
        // Left as plain HTML (the form still posts); the next focus or pointer tries again.
        this.started = false
        console.error(`The island "${name}" could not be hydrated:`, error)
      })
  }
}
