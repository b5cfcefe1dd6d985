import { type RefObject, useEffect, useRef } from 'react'

export type DismissReason = 'outside' | 'escape'

/**
 * While `open`, calls `onDismiss` when the visitor presses Escape or presses a pointer
 * outside `rootRef` — the closing behaviour shared by the Services dropdown and the mobile menu.
 */
export function useDismiss(
  open: boolean,
  rootRef: RefObject<HTMLElement | null>,
  onDismiss: (reason: DismissReason) => void,
) {
  // Latest callback without re-subscribing the listeners on every render.
  const onDismissRef = useRef(onDismiss)
  useEffect(() => {
    onDismissRef.current = onDismiss
  })

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      const root = rootRef.current
      if (root && event.target instanceof Node && !root.contains(event.target)) onDismissRef.current('outside')
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onDismissRef.current('escape')
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [open, rootRef])
}
