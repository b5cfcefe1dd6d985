import { DELETE_MS, PAUSE_MS, TYPE_MS } from '../lib/motion'

/**
 * The home headline's phrase types itself out: the server HTML holds the whole phrase (in the
 * root's first child); after a pause it is deleted one character at a time, retyped, and so
 * on. Never under `prefers-reduced-motion` (it stops, showing the whole phrase, when that
 * setting turns on). Screen readers read a separate, still copy (components/home/TypingHeadline.tsx).
 */
export default class TypingHeadline {
  private readonly text: HTMLElement
  private readonly chars: string[]
  private timer: ReturnType<typeof setTimeout> | undefined
  private shown: number
  private deleting = true

  constructor(root: HTMLElement) {
    const text = root.firstElementChild
    if (!(text instanceof HTMLElement)) throw new Error('the typing headline needs its text element')
    this.text = text
    this.chars = Array.from(text.textContent ?? '')
    this.shown = this.chars.length
    const motion = window.matchMedia('(prefers-reduced-motion: reduce)')
    const start = () => {
      clearTimeout(this.timer)
      this.shown = this.chars.length
      this.deleting = true
      this.render()
      if (!motion.matches) this.timer = setTimeout(this.step, PAUSE_MS)
    }
    motion.addEventListener('change', start)
    start()
  }

  private readonly step = () => {
    const total = this.chars.length
    this.shown += this.deleting ? -1 : 1
    this.render()
    if (this.shown === 0) this.deleting = false
    else if (this.shown === total) this.deleting = true
    this.timer = setTimeout(this.step, this.shown === total ? PAUSE_MS : this.deleting ? DELETE_MS : TYPE_MS)
  }

  private render() {
    this.text.textContent = this.chars.slice(0, this.shown).join('')
  }
}
