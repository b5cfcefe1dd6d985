// The timings and sizes of the site's motion, as the specification gives them, that the browser
// enhancements (enhance/) read. What CSS alone reads (`--reveal-duration`, `--typing-min-width`)
// is defined in pages/app.css.

/** Typing headline: milliseconds per typed character, per deleted character, pause at the full phrase. */
export const TYPE_MS = 100
export const DELETE_MS = 50
export const PAUSE_MS = 2000

/** Scroll reveal: an element counts as seen when 10% of it is inside the viewport extended 50 px downwards. */
export const REVEAL_THRESHOLD = 0.1
export const REVEAL_BOTTOM_MARGIN_PX = 50
export const REVEAL_ROOT_MARGIN = `0px 0px ${REVEAL_BOTTOM_MARGIN_PX}px 0px`
