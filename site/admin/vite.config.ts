// The live site's editor, built on its own: `sitegen build` runs `vite build --config
// admin/vite.config.ts` in a copy of site/ only when content/site.yaml has `cms:`, and publishes
// the output under /admin/ (sitegen/src/cms/live.rs). The site's own build (vite.config.ts) never
// sees the editor, so no visitor's page can load it.
import path from 'node:path'
import { defineConfig } from 'vite'

const siteDir = path.dirname(import.meta.dirname)

export default defineConfig({
  root: siteDir,
  // The site's public/ files are the site's, published by its own build.
  publicDir: false,
  logLevel: 'warn',
  build: {
    // Given by sitegen; a folder of the site's own when run by hand.
    outDir: process.env.SITEGEN_ADMIN_OUT ?? path.join(siteDir, 'dist/editor'),
    emptyOutDir: true,
    // Top-level await (admin/cms.ts awaits its configuration).
    target: 'es2022',
    // Hashed names under /admin/assets/, which `_headers` keeps for a year.
    assetsDir: 'admin/assets',
    rollupOptions: { input: path.join(siteDir, 'admin/index.html') },
    // Decap is one large module (bundled, about 4.7 MB); splitting it buys nothing.
    chunkSizeWarningLimit: 8000,
  },
})
