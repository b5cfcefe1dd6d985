import { existsSync } from 'node:fs'
import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'
import { contentFile as resolveContentFile } from './lib/contentFile.ts'
import { reloadOnContent } from './lib/devContent.ts'
import { sonnerStylesAsFile } from './lib/sonnerStyles.ts'

const siteDir = import.meta.dirname

// The content JSON written by `sitegen build` / `sitegen export`, resolved once here: the site
// reads it only through the `sitegen:content` alias (lib/settings.ts, lib/content.server.ts).
const contentFile = resolveContentFile(siteDir)
if (!existsSync(contentFile)) {
  throw new Error(
    `Content file not found: ${contentFile}\n` +
      'Generate it with `make content` (or `target/debug/sitegen export`), or build the whole site with `sitegen build`.',
  )
}

export default defineConfig({
  plugins: [react(), vike(), tailwindcss(), sonnerStylesAsFile(), reloadOnContent(contentFile)],
  resolve: {
    // `import { settings } from 'sitegen:content'` — see lib/settings.ts and lib/content.server.ts.
    alias: { 'sitegen:content': contentFile },
  },
  server: {
    fs: { allow: [siteDir, path.dirname(contentFile)] },
  },
  build: {
    outDir: process.env.SITEGEN_OUT_DIR || 'dist',
  },
})
