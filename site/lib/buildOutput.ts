import path from 'node:path'

/**
 * Where `vite build` writes, relative to the site: `$SITEGEN_OUT_DIR` (set by `sitegen build`),
 * else `dist`. Vike puts the browser's files in its `client/` folder and Vite's manifest of
 * them, keyed by source file, in `assets.json`.
 */
export const outDir = process.env.SITEGEN_OUT_DIR || 'dist'

/** Vite's manifest of the client build, read by the prerender (lib/enhancementPreloads.ts). */
export function clientManifestFile(siteDir: string): string {
  return path.resolve(siteDir, outDir, 'assets.json')
}
