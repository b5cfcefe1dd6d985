// lucide-react's `Icon` in the server bundle (vite.config.ts, `iconOnce`), drawing each icon once
// per set of props. An icon is a pure function of its props (the site sets no LucideProvider):
// the element lucide builds for an icon with the same props is the same on every page, and a
// build renders the same arrows, checks and chevrons in the frame of thousands of pages. Building
// it (lucide merges its class names and spreads its attributes on every call) was a sixth of a
// render worker's time; React elements are immutable, so one is drawn once and handed to React
// again. An icon with children or a ref is lucide's own, every time.
import LucideIcon from 'lucide-react/dist/esm/Icon.mjs'
import { forwardRef, type ReactElement, type Ref } from 'react'

type IconProps = { icon?: object; iconNode?: object; children?: unknown }

/** What lucide's `Icon` renders (a forwardRef's render function). */
const draw = (LucideIcon as unknown as { render: (props: IconProps, ref: Ref<SVGSVGElement>) => ReactElement }).render

/** The drawn elements of each icon (its drawing object), by the JSON of its other props. */
const drawn = new WeakMap<object, Map<string, ReactElement>>()

const IconOnce = forwardRef<SVGSVGElement, IconProps>(function IconOnce(props, ref) {
  const { icon, iconNode, children, ...rest } = props
  const drawing = icon ?? iconNode
  if (ref !== null || children !== undefined || drawing === undefined) return draw(props, ref)
  let byProps = drawn.get(drawing)
  if (!byProps) drawn.set(drawing, (byProps = new Map()))
  const key = JSON.stringify(rest)
  let element = byProps.get(key)
  if (!element) byProps.set(key, (element = draw(props, null)))
  return element
})

export default IconOnce
