/**
 * The Insights search box. Nothing of the search loads before the box first gets focus: this
 * module only waits for that focus, then fetches the engine (SearchBox.ts), which fetches the
 * index. What was typed before the engine arrived is searched at once.
 */
export default class ArticleSearch {
  constructor(root: HTMLElement) {
    root.addEventListener(
      'focusin',
      () => {
        void import('./SearchBox').then(({ default: SearchBox }) => {
          const box = new SearchBox(root)
          root.dataset.searchReady = 'true'
          return box
        })
      },
      { once: true },
    )
  }
}
