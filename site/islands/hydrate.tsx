import { type ComponentType, type ReactNode, useEffect } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { Toasts } from '../components/forms/Toasts'

/** Marks the island `data-hydrated="true"` once React has taken over its HTML. */
function Hydrated({ root, children }: { root: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    root.dataset.hydrated = 'true'
  }, [root])
  return children
}

let toaster: HTMLElement | undefined

/** The toasts' live region, once per page, at the end of the body (the toasts are fixed). */
function mountToaster(label: string) {
  if (toaster) return
  toaster = document.createElement('div')
  document.body.append(toaster)
  createRoot(toaster).render(<Toasts label={label} />)
}

/**
 * Hydrates an island's server HTML (islands/Island.tsx) with `Component` and the props
 * serialized beside it, and mounts the toasts its form shows.
 */
export function hydrate(root: HTMLElement, Component: ComponentType<Record<string, unknown>>) {
  const script = root.nextElementSibling
  if (!(script instanceof HTMLScriptElement) || !script.hasAttribute('data-island-props')) {
    throw new Error('an island needs its props in the <script data-island-props> after it')
  }
  const props = JSON.parse(script.textContent || '{}') as Record<string, unknown>
  mountToaster(root.dataset.toastsLabel ?? '')
  hydrateRoot(
    root,
    <Hydrated root={root}>
      <Component {...props} />
    </Hydrated>,
    { onRecoverableError: (error) => console.error('The island was rendered anew in the browser:', error) },
  )
}
