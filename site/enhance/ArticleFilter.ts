/**
 * The Insights filter: choosing a category or type narrows the article cards on the page and
 * updates the URL (`?category=cloud-services`, `?type=technical`, both combinable), so a
 * filtered view can be shared and reloaded; the URL's filter is applied on load. Without
 * JavaScript the same choices are links (a category to its prerendered listing page).
 * Markup: the root names `article-filter`; its choices are `a[data-filter="category"|"type"]`
 * with `data-value`, and `a[data-filter="clear"]`; the cards are `[data-article-card]`
 * elements with `data-category` and `data-type`, anywhere on the page.
 */
type Key = 'category' | 'type'
const KEYS: Key[] = ['category', 'type']

export default class ArticleFilter {
  constructor(private readonly root: HTMLElement) {
    root.addEventListener('click', (event) => {
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-filter]') : null
      if (!link) return
      event.preventDefault()
      const url = new URL(window.location.href)
      const key = link.dataset.filter
      if (key === 'clear') {
        for (const k of KEYS) url.searchParams.delete(k)
      } else if (key === 'category' || key === 'type') {
        const value = link.dataset.value ?? ''
        if (url.searchParams.get(key) === value) url.searchParams.delete(key)
        else url.searchParams.set(key, value)
      }
      history.replaceState(history.state, '', url)
      this.apply()
    })
    this.apply()
  }

  private apply() {
    const params = new URL(window.location.href).searchParams
    const wanted = Object.fromEntries(KEYS.map((k) => [k, params.get(k)])) as Record<Key, string | null>
    const active = KEYS.some((k) => wanted[k])
    for (const link of this.root.querySelectorAll<HTMLAnchorElement>('a[data-filter="category"], a[data-filter="type"]')) {
      const key = link.dataset.filter as Key
      link.setAttribute('aria-pressed', String(wanted[key] === link.dataset.value))
      link.setAttribute('role', 'button')
    }
    for (const card of document.querySelectorAll<HTMLElement>('[data-article-card]')) {
      const matches = KEYS.every((k) => !wanted[k] || card.dataset[k] === wanted[k])
      // Cards beyond the first page of the latest list appear only while filtering.
      card.hidden = !matches || (!active && card.hasAttribute('data-extra'))
    }
  }
}
