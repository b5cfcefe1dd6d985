import { useEffect, useState } from 'react'
import type { Toaster as SonnerToaster } from 'sonner'
import 'sonner/dist/styles.css'
import { sonnerLoaded } from './toast'
import './toasts.css'

/** Toasts shown at once, and how long each stays. */
export const VISIBLE_TOASTS = 3
export const TOAST_DURATION_MS = 4000

/**
 * Where toasts appear (the forms' "Message Sent!" and "Error"): a labelled live region, so
 * screen readers read each toast as it arrives. Error toasts are red, success toasts green, in
 * the site's palette (toasts.css). The toaster mounts once the toast library has loaded (see
 * toast.ts), so pages without a form in use never fetch it; it then shows any toast already made.
 */
export function Toasts({ label }: { label: string }) {
  const [Toaster, setToaster] = useState<typeof SonnerToaster | null>(null)
  useEffect(() => {
    let mounted = true
    void sonnerLoaded.then((sonner) => {
      if (mounted) setToaster(() => sonner.Toaster)
    })
    return () => {
      mounted = false
    }
  }, [])
  if (!Toaster) return null
  return (
    <Toaster
      visibleToasts={VISIBLE_TOASTS}
      duration={TOAST_DURATION_MS}
      richColors
      position="bottom-right"
      containerAriaLabel={label}
      toastOptions={{ className: 'font-sans' }}
    />
  )
}
