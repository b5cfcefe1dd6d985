import Globe from 'lucide-react/icons/globe'
import type { ComponentType, SVGProps } from 'react'
import type { Icon } from '../../schema/Icon'
import { GitHubIcon } from './GitHubIcon'
import { LinkedInIcon } from './LinkedInIcon'
import { TwitterIcon } from './TwitterIcon'

// The footer is on every page and its networks come from the site settings, not from page data,
// so it draws the networks' marks itself instead of using ContentIcon (whose drawings travel with
// each page's data). Other names get a generic globe.
const marks: Partial<Record<Icon, ComponentType<SVGProps<SVGSVGElement>>>> = {
  github: GitHubIcon,
  linkedin: LinkedInIcon,
  twitter: TwitterIcon,
}

export type SocialIconProps = SVGProps<SVGSVGElement> & { icon: Icon }

/** A social network's mark; decorative (aria-hidden) — label the parent instead. */
export function SocialIcon({ icon, ...props }: SocialIconProps) {
  const Mark = marks[icon] ?? Globe
  return <Mark aria-hidden="true" focusable="false" {...props} />
}
