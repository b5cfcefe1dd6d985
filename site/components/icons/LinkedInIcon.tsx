import type { SVGProps } from 'react'
import { brandMarks } from './brandMarks'

/** The LinkedIn mark (brand glyphs are not part of lucide). */
export function LinkedInIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" {...props}>
      <path d={brandMarks.linkedin} />
    </svg>
  )
}
