// A Tailwind plugin (`@plugin` in pages/app.css) publishing the motion values CSS needs before
// any script runs, from their one definition in lib/motion.ts.
import plugin from 'tailwindcss/plugin'
import { REVEAL_DURATION_MS, TYPING_MIN_WIDTH_PX } from './motion.ts'

export default plugin(({ addBase }) => {
  addBase({
    ':root': {
      '--reveal-duration': `${REVEAL_DURATION_MS}ms`,
      '--typing-min-width': `${TYPING_MIN_WIDTH_PX}px`,
    },
  })
})
