import Download from 'lucide-react/icons/download'
import type { Resource } from '../../schema/Resource'
import { ContentIcon } from '../icons/ContentIcon'
import { Card } from '../ui/Card'

export type ResourceCardProps = {
  resource: Resource
  /** Caption of the download count (`downloads`). */
  downloadsLabel: string
}

/** A free resource: its kind, title, description, size and how often it was downloaded. */
export function ResourceCard({ resource, downloadsLabel }: ResourceCardProps) {
  return (
    <Card as="article" className="h-full gap-5">
      <div className="flex items-center justify-between gap-3">
        <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
          <ContentIcon icon={resource.icon} className="size-6" />
        </span>
        <span className="text-eyebrow text-brand-700 uppercase">{resource.type}</span>
      </div>
      <div className="flex flex-col gap-2">
        <h3 className="text-lg leading-snug font-semibold tracking-tight text-balance text-ink-950">{resource.title}</h3>
        <p className="text-pretty text-sm leading-relaxed text-ink-600">{resource.description}</p>
      </div>
      <p className="mt-auto flex items-center justify-between gap-3 border-t border-ink-100 pt-4 text-sm">
        <span className="font-medium text-ink-700">{resource.details}</span>
        <span className="inline-flex items-center gap-1.5 text-ink-500">
          <Download aria-hidden="true" className="size-4" />
          <span>
            <span className="font-semibold text-ink-900">{resource.download_count}</span> {downloadsLabel}
          </span>
        </span>
      </p>
    </Card>
  )
}
