import { useId } from 'react'
import type { SocialLink } from '../../schema/SocialLink'
import { SocialIcon } from '../icons/SocialIcon'

export type SocialListProps = { label: string; social: SocialLink[] }

/**
 * The social networks as labelled icons. They are placeholders with no destination yet, so
 * they are deliberately not links (no `href="#"`): each is an image named after the network.
 */
export function SocialList({ label, social }: SocialListProps) {
  const labelId = useId()
  return (
    <div className="flex flex-col gap-3">
      <p id={labelId} className="text-sm font-semibold text-white">
        {label}
      </p>
      <ul aria-labelledby={labelId} className="flex gap-2.5">
        {social.map((item) => (
          <li key={item.name}>
            <span
              role="img"
              aria-label={item.name}
              title={item.name}
              className="flex size-10 items-center justify-center rounded-full bg-white/5 text-ink-300 ring-1 ring-white/10"
            >
              <SocialIcon icon={item.icon} className="size-4" />
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
