// The progressive enhancements of the server HTML, by the name markup binds them with:
// `data-module="disclosure"` (several names separated by spaces). Each is a class taking its
// root element, in its own file, and is fetched only by pages whose HTML names it (see
// bindAll.ts). None uses a framework; the React islands load through `island`.

export type Enhancement = { default: new (root: HTMLElement) => unknown }

export const modules = {
  /** A button that shows and hides a panel: the Services dropdown, the mobile menu. */
  disclosure: () => import('./Disclosure'),
  /** The home headline's phrase typing itself out. */
  typing: () => import('./TypingHeadline'),
  /** A section fading in the first time it scrolls into view. */
  reveal: () => import('./Reveal'),
  /** A React island (a form), hydrated once the visitor reaches for it. */
  island: () => import('./IslandLoader'),
  /** The Insights search box: results as the visitor types, index fetched on first focus. */
  'article-search': () => import('./ArticleSearch'),
  /** The Insights filter: narrows the cards and keeps the choice in the URL. */
  'article-filter': () => import('./ArticleFilter'),
  /** The not-found page logs the missing path. */
  'log-missing-page': () => import('./LogMissingPage'),
} satisfies Record<string, () => Promise<Enhancement>>

export type ModuleName = keyof typeof modules

/** The attribute binding `names` to an element: `<div {...enhance('reveal')}>`. */
export function enhance(...names: ModuleName[]) {
  return { 'data-module': names.join(' ') }
}
