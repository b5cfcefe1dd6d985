import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig, type Plugin, type UserConfig } from 'vite'
import { outDir } from './lib/buildOutput.ts'
import { contentFile } from './lib/contentFile.ts'
import { reloadOnContent } from './lib/devContent.ts'
import { sonnerStylesAsFile } from './lib/sonnerStyles.ts'

const siteDir = import.meta.dirname

/** The server bundle's entry for sitegen's render workers, built beside Vike's (render/). */
function renderWorkerEntry(): Plugin {
  return {
    name: 'sitegen:render-entry',
    apply: 'build',
    configEnvironment(name) {
      if (name !== 'ssr') return
      return { build: { rollupOptions: { input: { sitegen: `${siteDir}/render/entry.server.ts` } } } }
    },
  }
}

// The bundle is a function of site/ alone: the content reaches the pages when they are rendered
// (lib/contentGlobal.ts), from sitegen's render workers in a build and from the content JSON that
// `sitegen dev` / `sitegen export` write under the dev server (lib/devContent.ts).
export default defineConfig(({ command }) => ({
  plugins: [react(), vike(), tailwindcss(), sonnerStylesAsFile(), reloadOnContent(contentFile(siteDir)), renderWorkerEntry()],
  build: {
    outDir,
  },
  // sitegen builds a copy of the site whose node_modules is a link to this one's: module ids
  // stay below the root, so the bundle's file names do not depend on where the copy is.
  resolve: { preserveSymlinks: true },
  ssr: {
    // Every render worker of a build starts by importing the server bundle. With its packages
    // external, Node resolves and compiles Vike's, React's and lucide-react's hundreds of modules
    // one file at a time: 0.2 s before the first page, about half of a content-only rebuild of
    // the site. Bundled, they are a few chunks, imported in a few milliseconds. The dev server
    // loads packages from node_modules as they are, except lucide-react: as an external package
    // it would load its whole barrel of some 1,600 icons.
    noExternal: command === 'build' ? true : ['lucide-react'],
  },
  // No `server.warmup`: transforming the pages' modules as the dev server starts competed with
  // its start on two cores, and the first page came later with it than without (at 5,000
  // articles, medians of 2.87 s and 2.70 s over four interleaved starts each).
  // The render workers import the server entry themselves: no record of it is written into
  // node_modules.
  vitePluginServerEntry: { disableAutoImport: true },
}) as UserConfig)
