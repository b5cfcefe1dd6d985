import type { ReactNode } from 'react'
import type { ContactCard } from '../../schema/ContactCard'
import { ContentIcon } from '../icons/ContentIcon'

export type ContactCardItemProps = {
  card: ContactCard
  /** The address, number or link the card offers. */
  children: ReactNode
}

/** One way to reach the company: icon, heading, a short line and the details themselves. */
export function ContactCardItem({ card, children }: ContactCardItemProps) {
  return (
    <li className="flex gap-4 rounded-card border border-ink-200/80 bg-white p-5 shadow-card sm:p-6">
      <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
        <ContentIcon icon={card.icon} className="size-6" />
      </span>
      <div className="flex min-w-0 flex-col gap-1">
        <h3 className="text-lg font-semibold tracking-tight text-ink-950">{card.title}</h3>
        <p className="text-sm text-ink-500">{card.description}</p>
        <div className="mt-1.5 text-ink-900">{children}</div>
      </div>
    </li>
  )
}
