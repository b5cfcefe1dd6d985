import { Toaster } from 'sonner'
import 'sonner/dist/styles.css'
import './toasts.css'

/** Toasts shown at once, and how long each stays. */
export const VISIBLE_TOASTS = 3
export const TOAST_DURATION_MS = 4000

/**
 * Where toasts appear (the forms' "Message Sent!" and "Error"): a labelled live region, so
 * screen readers read each toast as it arrives. Error toasts are red, success toasts green, in
 * the site's palette (toasts.css).
 */
export function Toasts({ label }: { label: string }) {
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
