import nodeModule from 'node:module'

/**
 * Imports `load()`'s modules with `module.register` (Node's off-thread module hooks) turned into
 * a no-op, then puts it back.
 *
 * `@tailwindcss/node` registers a resolve hook as it is imported, to re-import a stylesheet's
 * JavaScript plugins and configs (`@plugin`, `@config`) afresh when they change. The site's
 * stylesheet has none. On Node versions without `module.registerHooks` (before 22.15) such a
 * hook runs in a worker thread, and every module Node resolves after it (Vike's server, React,
 * the pages' packages) waits for a round trip to that thread: importing Vike's and React's
 * server modules took 0.5 s without the hook and 0.9-1.0 s with it, before the dev server's
 * first page and in every bundle. Node versions with `registerHooks` run the hook on the thread
 * and are left alone.
 */
export async function withoutModuleHooks<T>(load: () => Promise<T>): Promise<T> {
  const node = nodeModule as unknown as { register?: unknown; registerHooks?: unknown }
  const register = node.register
  if (node.registerHooks || !register) return load()
  node.register = () => {}
  nodeModule.syncBuiltinESMExports()
  try {
    return await load()
  } finally {
    node.register = register
    nodeModule.syncBuiltinESMExports()
  }
}
