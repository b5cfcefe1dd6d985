import Check from 'lucide-react/icons/check'
import type { Platform } from '../../schema/Platform'
import { ContentIcon } from '../icons/ContentIcon'
import { Card } from '../ui/Card'

export type PlatformCardProps = {
  platform: Platform
}

/** An enterprise platform: icon, name, a sentence and its features. */
export function PlatformCard({ platform }: PlatformCardProps) {
  return (
    <Card as="article" className="h-full gap-5 sm:p-7">
      <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
        <ContentIcon icon={platform.icon} className="size-6" />
      </span>
      <div className="flex flex-col gap-2">
        <h3 className="text-subtitle text-balance text-ink-950">{platform.name}</h3>
        <p className="text-pretty text-ink-600">{platform.description}</p>
      </div>
      <ul className="mt-auto flex flex-col gap-2.5 border-t border-ink-100 pt-5">
        {platform.features.map((feature) => (
          <li key={feature} className="flex gap-2.5 text-sm text-ink-700">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" strokeWidth={2.5} />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
    </Card>
  )
}
