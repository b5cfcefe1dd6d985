import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { defineConfig, type Plugin, type UserConfig } from 'vite'
import { outDir } from './lib/buildOutput.ts'
import { contentFile } from './lib/contentFile.ts'
import { adminPage } from './lib/devAdmin.ts'
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

/**
 * In the server bundle, lucide-react's `Icon`, behind every icon component, is lib/iconOnce.server.ts,
 * which draws each icon once per set of props and wraps lucide's own.
 */
function iconOnce(): Plugin {
  const wrapper = `${siteDir}/lib/iconOnce.server.ts`
  return {
    name: 'sitegen:icon-once',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    async resolveId(source, importer) {
      if (importer === wrapper) return undefined
      const createsIcon = source === './Icon.mjs' && importer !== undefined && /lucide-react\/dist\/esm\/createLucideIcon\.mjs$/.test(importer)
      if (createsIcon || source === 'lucide-react/dist/esm/Icon.mjs') return wrapper
      return undefined
    },
  }
}

/**
 * The dev server's page renders leave stylesheets to the browser: a page's HTML names the
 * stylesheets its modules import, and the browser's request for each is where Tailwind generates
 * it. Loaded empty on the server, they are not generated a second time there (Tailwind keeps a
 * generation per environment), which was a fifth of the dev server's first page.
 */
function stylesheetsForTheBrowser(): Plugin {
  return {
    name: 'sitegen:stylesheets-for-the-browser',
    apply: 'serve',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    load: (id) => (/\.css$/.test(id) ? '' : undefined),
  }
}

/**
 * The dev server's module runner imports a page's modules one after another when the first
 * request asks for it. Imported as soon as the server listens, they load while the address is
 * still on its way to the browser, and side by side, each in the others' waits (at 5,000
 * articles the first page came after 2.88 s with this and 3.00 s without, medians of six
 * interleaved starts). They are those of every page (`pages/+*` but the config and the
 * browser's entry) and those of `/`, the page of the URL `sitegen dev` prints; a folder that is
 * not there names none. A module that fails here fails again in the request, which says why.
 */
function firstPageAhead(): Plugin {
  const plusFiles = (dir: string) => {
    const folder = path.join(siteDir, dir)
    return (existsSync(folder) ? readdirSync(folder) : [])
      .filter((name) => /^\+.+\.tsx?$/.test(name) && !/^\+(config|client)\./.test(name))
      .map((name) => `/${dir}/${name}`)
  }
  return {
    name: 'sitegen:first-page-ahead',
    apply: 'serve',
    configureServer(server) {
      server.httpServer?.once('listening', () => {
        for (const id of [...plusFiles('pages'), ...plusFiles('pages/index')]) server.ssrLoadModule(id).catch(() => {})
      })
    },
  }
}

// The bundle is a function of site/ alone: the content reaches the pages when they are rendered
// (lib/contentGlobal.ts), from sitegen's render workers in a build and from the content JSON that
// `sitegen dev` / `sitegen export` write under the dev server (lib/devContent.ts).
export default defineConfig(({ command }) => ({
  plugins: [react(), vike(), stylesheetsForTheBrowser(), tailwindcss(), sonnerStylesAsFile(), adminPage(), reloadOnContent(contentFile(siteDir)), firstPageAhead(), renderWorkerEntry(), iconOnce()],
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
    // loads every package from node_modules as it is: Node loads the icons the site names
    // (lib/icons.server.ts imports each by its own path) in parallel, where the dev server's
    // module runner would transform and import them one after another, a quarter of a second
    // of its first page.
    noExternal: command === 'build' ? true : [],
  },
  // No `server.warmup`: transforming the pages' modules as the dev server starts competed with
  // its start on two cores, and the first page came later with it than without (at 5,000
  // articles, medians of 2.87 s and 2.70 s over four interleaved starts each). Importing the
  // first page's modules once it listens does help (firstPageAhead above).
  // The render workers import the server entry themselves: no record of it is written into
  // node_modules.
  vitePluginServerEntry: { disableAutoImport: true },
}) as UserConfig)
