// The timings and sizes of the site's motion, as the specification gives them: read by the
// browser enhancements (enhance/) and, for what CSS must know before any script runs, turned
// into CSS custom properties by lib/motion.tailwind.ts (`--reveal-duration`, `--typing-min-width`).

/** Typing headline: milliseconds per typed character, per deleted character, pause at the full phrase. */
export const TYPE_MS = 100
export const DELETE_MS = 50
export const PAUSE_MS = 2000
/** The typed phrase's box is at least this wide, so nothing around it moves. */
export const TYPING_MIN_WIDTH_PX = 280

/** Scroll reveal: an element counts as seen when 10% of it is inside the viewport extended 50 px downwards. */
export const REVEAL_THRESHOLD = 0.1
export const REVEAL_BOTTOM_MARGIN_PX = 50
export const REVEAL_ROOT_MARGIN = `0px 0px ${REVEAL_BOTTOM_MARGIN_PX}px 0px`
/** How long a revealed element takes to fade and slide in. */
export const REVEAL_DURATION_MS = 700
