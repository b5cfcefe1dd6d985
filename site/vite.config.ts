import { existsSync } from 'node:fs'
import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'
import { sonnerStylesAsFile } from './lib/sonnerStyles.ts'

const siteDir = import.meta.dirname

// The content JSON written by `sitegen build` / `sitegen export`. Resolved once here and put
// back into the environment so the prerender's data hooks (same process) read the same file.
const contentFile = path.resolve(siteDir, process.env.SITEGEN_CONTENT || '.sitegen/content.json')
if (!existsSync(contentFile)) {
  throw new Error(
    `Content file not found: ${contentFile}\n` +
      'Generate it with `make content` (or `target/debug/sitegen export`), or build the whole site with `sitegen build`.',
  )
}
process.env.SITEGEN_CONTENT = contentFile

export default defineConfig({
  plugins: [react(), vike(), tailwindcss(), sonnerStylesAsFile()],
  resolve: {
    // `import { settings } from 'sitegen:content'` — see lib/settings.ts.
    alias: { 'sitegen:content': contentFile },
  },
  server: {
    fs: { allow: [siteDir, path.dirname(contentFile)] },
  },
  build: {
    outDir: process.env.SITEGEN_OUT_DIR || 'dist',
  },
})
