/**
 * A button that shows and hides a panel (`aria-expanded`, `hidden`): the Services dropdown and
 * the mobile menu. Markup, inside the root that names `disclosure`:
 * - `[data-disclosure-button]`: the toggle; optional `data-label-open` / `data-label-close`
 *   become its `aria-label` in each state (the mobile menu's "Open menu" / "Close menu");
 * - `[data-disclosure-panel]`: what it shows (the panel, and the mobile menu's backdrop);
 * - `[data-disclosure-close]`: a click there closes it (the backdrop), as does choosing a link;
 * - `data-close-on-focus-out` on the root: closes when focus leaves the root (the dropdown).
 * It closes on Escape (focus returns to the button), on a pointer pressed outside the root, and
 * when the page is shown again from the back/forward cache.
 */
export default class Disclosure {
  private readonly button: HTMLButtonElement
  private readonly panels: HTMLElement[]

  constructor(private readonly root: HTMLElement) {
    const own = <T extends Element>(selector: string) =>
      [...root.querySelectorAll<T>(selector)].filter((el) => el.closest('[data-module~="disclosure"]') === root)
    const [button] = own<HTMLButtonElement>('[data-disclosure-button]')
    if (!button) throw new Error('a disclosure needs a [data-disclosure-button]')
    this.button = button
    this.panels = own<HTMLElement>('[data-disclosure-panel]')

    button.addEventListener('click', () => this.set(!this.open))
    for (const panel of this.panels) {
      panel.addEventListener('click', (event) => {
        const target = event.target instanceof Element ? event.target : null
        if (target?.closest('a[href], [data-disclosure-close]')) this.set(false)
      })
    }
    document.addEventListener('pointerdown', (event) => {
      if (this.open && event.target instanceof Node && !root.contains(event.target)) this.set(false)
    })
    document.addEventListener('keydown', (event) => {
      if (this.open && event.key === 'Escape' && !event.defaultPrevented) {
        this.set(false)
        this.button.focus()
      }
    })
    if (root.hasAttribute('data-close-on-focus-out')) {
      root.addEventListener('focusout', (event) => {
        const next = event.relatedTarget
        if (this.open && next instanceof Node && !root.contains(next)) this.set(false)
      })
    }
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) this.set(false)
    })
  }

  get open(): boolean {
    return this.button.getAttribute('aria-expanded') === 'true'
  }

  set(open: boolean) {
    this.button.setAttribute('aria-expanded', String(open))
    const label = open ? this.button.dataset.labelClose : this.button.dataset.labelOpen
    if (label) this.button.setAttribute('aria-label', label)
    for (const panel of this.panels) panel.hidden = !open
  }
}
