import { type ModuleName, modules } from './modules'

/**
 * Binds every enhancement the document's markup names (`data-module`), fetching each module
 * once and only when some element names it. Resolves once every element is bound; an
 * enhancement that fails to load or bind is logged and leaves its plain HTML working.
 */
export async function bindAll(root: ParentNode = document): Promise<void> {
  const byName = new Map<ModuleName, HTMLElement[]>()
  for (const element of root.querySelectorAll<HTMLElement>('[data-module]')) {
    for (const name of (element.dataset.module ?? '').split(/\s+/)) {
      if (!Object.hasOwn(modules, name)) {
        if (name) console.error(`Unknown enhancement "${name}" on`, element)
        continue
      }
      const list = byName.get(name as ModuleName) ?? []
      list.push(element)
      byName.set(name as ModuleName, list)
    }
  }
  await Promise.all(
    [...byName].map(async ([name, elements]) => {
      try {
        const { default: Enhancement } = await modules[name]()
        for (const element of elements) new Enhancement(element)
      } catch (error) {
        console.error(`The enhancement "${name}" could not be bound:`, error)
      }
    }),
  )
}
