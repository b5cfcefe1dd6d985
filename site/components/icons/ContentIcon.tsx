import LucideIcon from 'lucide-react/dist/esm/Icon.mjs'
import type { SVGProps } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import type { Icon } from '../../schema/Icon'

export type ContentIconProps = SVGProps<SVGSVGElement> & { icon: Icon }

/**
 * The SVG for an icon named in content; decorative (aria-hidden) — label the parent instead.
 * The drawing comes with the page (`pageContext.icons`, resolved from the page's data at build
 * time by lib/icons.server.ts, where every icon name is mapped), so pages bundle no icon set.
 */
export function ContentIcon({ icon, ...props }: ContentIconProps) {
  const drawing = usePageContext().icons?.[icon]
  if (!drawing) {
    throw new Error(`The icon "${icon}" is not in this page's data, so it was not resolved (lib/icons.server.ts)`)
  }
  return <LucideIcon icon={drawing} aria-hidden="true" focusable="false" {...props} />
}
