import { useState } from 'react'

/**
 * Open/closed state that closes itself on route change: it remembers the path it was
 * opened on, so navigating anywhere (link, back button) closes it without an effect.
 */
export function useOpenOnPage(pathname: string) {
  const [openOn, setOpenOn] = useState<string | null>(null)
  const open = openOn === pathname
  return {
    open,
    setOpen: (next: boolean) => setOpenOn(next ? pathname : null),
    toggle: () => setOpenOn(open ? null : pathname),
  }
}
