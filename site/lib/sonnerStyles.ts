import type { Plugin } from 'vite'

/**
 * Sonner (the toasts) injects its stylesheet as an inline `<style>` element when its module
 * loads. The site's Content-Security-Policy (`style-src 'self'`) blocks inline styles, so that
 * would fail, with a console error, on every page whose form island loads. This build plugin removes the injection;
 * `components/forms/Toasts.tsx` imports the same stylesheet as a file instead.
 */
export function sonnerStylesAsFile(): Plugin {
  return {
    name: 'sonner-styles-as-file',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null
      const call = /__insertCSS\("(?:[^"\\]|\\.)*"\);?/
      if (!call.test(code)) {
        this.error('sonner no longer injects its stylesheet with __insertCSS("..."); update lib/sonnerStyles.ts')
      }
      return { code: code.replace(call, ''), map: null }
    },
  }
}
