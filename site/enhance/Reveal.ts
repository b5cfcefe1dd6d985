import { REVEAL_BOTTOM_MARGIN_PX, REVEAL_ROOT_MARGIN, REVEAL_THRESHOLD } from '../lib/motion'

/** Elements waiting for their first intersection. */
const waiting = new Set<HTMLElement>()

let observer: IntersectionObserver | undefined
function intersections(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) show(entry.target as HTMLElement)
    },
    { threshold: REVEAL_THRESHOLD, rootMargin: REVEAL_ROOT_MARGIN },
  )
  return observer
}

function show(element: HTMLElement) {
  if (!waiting.delete(element)) return
  intersections().unobserve(element)
  const delay = Number(element.dataset.revealDelay)
  if (delay > 0) element.style.transitionDelay = `${delay}ms`
  element.dataset.reveal = 'shown'
}

// A jump (End key, an anchor link, a scroll bar drag) can carry the page past a waiting element
// without it ever intersecting: whatever is now above the viewport is shown, never left blank.
let frame = 0
function onScroll() {
  if (frame) return
  frame = requestAnimationFrame(() => {
    frame = 0
    for (const element of waiting) if (element.getBoundingClientRect().top < 0) show(element)
    if (waiting.size === 0) window.removeEventListener('scroll', onScroll)
  })
}

/**
 * Fades its root in (from transparent, shifted down) the first time it scrolls into view; once
 * shown it stays shown. The server HTML is fully visible (`data-reveal="static"`), so pages
 * read fine without JavaScript; nothing is hidden under `prefers-reduced-motion` or when the
 * element is already on screen (or above it) when this runs. Only elements below the fold are
 * hidden (`data-reveal="hidden"`, styled by components/ui/Reveal.tsx) until they are seen.
 */
export default class Reveal {
  constructor(root: HTMLElement) {
    if (typeof IntersectionObserver === 'undefined') return
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return
    if (root.getBoundingClientRect().top < window.innerHeight + REVEAL_BOTTOM_MARGIN_PX) return
    root.dataset.reveal = 'hidden'
    if (waiting.size === 0) window.addEventListener('scroll', onScroll, { passive: true })
    waiting.add(root)
    intersections().observe(root)
  }
}
