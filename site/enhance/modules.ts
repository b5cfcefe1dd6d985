// The progressive enhancements of the server HTML, by the name markup binds them with:
// `data-module="disclosure"` (several names separated by spaces). Each is a class taking its
// root element, in its own file of this folder, and is fetched only by pages whose HTML names
// it (see bindAll.ts); the prerender preloads exactly those files (lib/enhancementPreloads.ts).
// None uses a framework; the React islands load through `island`.

export type Enhancement = { default: new (root: HTMLElement) => unknown }

/** Each enhancement's file in this folder, by name. */
export const sources = {
  /** A button that shows and hides a panel: the Services dropdown, the mobile menu. */
  disclosure: 'Disclosure.ts',
  /** The home headline's phrase typing itself out. */
  typing: 'TypingHeadline.ts',
  /** A section fading in the first time it scrolls into view. */
  reveal: 'Reveal.ts',
  /** A React island (a form), hydrated once the visitor reaches for it. */
  island: 'IslandLoader.ts',
  /** The Insights search box: results as the visitor types, index fetched on first focus. */
  'article-search': 'ArticleSearch.ts',
  /** The Insights filter: narrows the cards and keeps the choice in the URL. */
  'article-filter': 'ArticleFilter.ts',
  /** The not-found page logs the missing path. */
  'log-missing-page': 'LogMissingPage.ts',
} as const

export type ModuleName = keyof typeof sources

// Every file of this folder but the binding code itself, each its own chunk.
const files = import.meta.glob<Enhancement>(['./*.ts', '!./bindAll.ts', '!./modules.ts'])

/** Fetches an enhancement's module. */
export const modules = Object.fromEntries(
  Object.entries(sources).map(([name, file]) => {
    const load = files[`./${file}`]
    if (!load) throw new Error(`The enhancement "${name}" names ${file}, which is not in enhance/`)
    return [name, load]
  }),
) as Record<ModuleName, () => Promise<Enhancement>>

/** The attribute binding `names` to an element: `<div {...enhance('reveal')}>`. */
export function enhance(...names: ModuleName[]) {
  return { 'data-module': names.join(' ') }
}
