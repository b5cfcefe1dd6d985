import type { ComponentType, SVGProps } from 'react'
import type { Icon } from '../../schema/Icon'
import { GitHubIcon } from './GitHubIcon'
import { LinkedInIcon } from './LinkedInIcon'
import { TwitterIcon } from './TwitterIcon'

// Every icon name content may use, mapped to its SVG. The Record is exhaustive: a new name
// in the content schema fails the type check until it is mapped here (lucide-react for
// generic icons, a local component for brand marks).
const icons: Record<Icon, ComponentType<SVGProps<SVGSVGElement>>> = {
  github: GitHubIcon,
  linkedin: LinkedInIcon,
  twitter: TwitterIcon,
}

export type ContentIconProps = SVGProps<SVGSVGElement> & { icon: Icon }

/** The SVG for an icon named in content; decorative (aria-hidden) — label the parent instead. */
export function ContentIcon({ icon, ...props }: ContentIconProps) {
  const Glyph = icons[icon]
  return <Glyph aria-hidden="true" focusable="false" {...props} />
}
