type Sonner = typeof import('sonner')

let resolveSonner: (sonner: Sonner) => void = () => {}
/** Settles once the toast library has loaded; `Toasts` waits on it to mount the toaster. */
export const sonnerLoaded = new Promise<Sonner>((resolve) => {
  resolveSonner = resolve
})
let loading: Promise<Sonner> | null = null

/**
 * Fetches the toast library, once: pages ship without it and load it only when a visitor starts
 * filling in a form or a toast is about to show. A failed fetch is retried on the next call.
 */
export function loadToasts(): Promise<Sonner> {
  loading ??= import('sonner').then(
    (sonner) => {
      resolveSonner(sonner)
      return sonner
    },
    (error: unknown) => {
      loading = null
      throw error
    },
  )
  return loading
}

/** Starts loading the toast library while the visitor fills in a form (errors surface in showToast). */
export function preloadToasts() {
  loadToasts().catch(() => {})
}

/** Shows a toast (a form's "Message Sent!" or "Error"), loading the toast library first if needed. */
export async function showToast(kind: 'success' | 'error', title: string, description: string) {
  try {
    const { toast } = await loadToasts()
    toast[kind](title, { description })
  } catch (error) {
    console.error('The notification could not be shown:', error)
  }
}
