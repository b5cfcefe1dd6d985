import Check from 'lucide-react/icons/check'
import type { Blurb } from '../../schema/Blurb'
import type { ReactNode } from 'react'
import { Container } from '../ui/Container'

export type BlurbSectionProps = {
  blurb: Blurb
  headingId: string
}

/**
 * The short text under a sub-service's hero: a heading and paragraphs, with the highlights as a
 * checklist beside them on wide screens (or the text alone, centred, when there are none).
 */
export function BlurbSection({ blurb, headingId }: BlurbSectionProps) {
  const text = (
    <div className="flex flex-col gap-5">
      <h2 id={headingId} className="text-title text-balance text-ink-950">
        {blurb.title}
      </h2>
      {blurb.body.map((paragraph) => (
        <p key={paragraph} className="text-pretty text-lead text-ink-600">
          {paragraph}
        </p>
      ))}
    </div>
  )
  if (blurb.points.length === 0) {
    return (
      <Band headingId={headingId}>
        <div className="mx-auto max-w-3xl text-center">{text}</div>
      </Band>
    )
  }
  return (
    <Band headingId={headingId}>
      <div className="grid items-center gap-10 lg:grid-cols-[1.15fr_1fr] lg:gap-16">
        {text}
        <ul
          role="list"
          className="flex flex-col gap-4 rounded-panel border border-ink-200/80 bg-ink-50 p-6 shadow-card sm:p-8"
        >
          {blurb.points.map((point) => (
            <li key={point} className="flex items-start gap-3 font-medium text-ink-800">
              <span
                aria-hidden="true"
                className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-brand-600 text-white"
              >
                <Check className="size-3.5" strokeWidth={3} />
              </span>
              {point}
            </li>
          ))}
        </ul>
      </div>
    </Band>
  )
}

// Directly under the hero, whose bottom padding already separates the two.
function Band({ headingId, children }: { headingId: string; children: ReactNode }) {
  return (
    <section aria-labelledby={headingId} className="bg-white pb-20 sm:pb-24 lg:pb-28">
      <Container>{children}</Container>
    </section>
  )
}
