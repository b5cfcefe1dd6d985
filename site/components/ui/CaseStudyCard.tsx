import Check from 'lucide-react/icons/check'
import TrendingUp from 'lucide-react/icons/trending-up'
import type { CaseStudy } from '../../schema/CaseStudy'
import type { CaseStudyLabels } from '../../schema/CaseStudyLabels'
import { cx } from '../../lib/cx'
import { ActionLink } from './ActionLink'

export type CaseStudyCardProps = {
  study: CaseStudy
  /** The headings inside the card (`Challenge`, `Solution`, `Results`). */
  labels: CaseStudyLabels
  /** Level of the card's title: 3 under a section's h2 (default). Inner headings sit one below. */
  level?: 3 | 4
  className?: string
}

/**
 * A client story: client type, title, the challenge, what was built and the measured results,
 * ending with a call to action. Stretches to the height of its grid row, the button at the bottom.
 */
export function CaseStudyCard({ study, labels, level = 3, className }: CaseStudyCardProps) {
  const Title = level === 3 ? 'h3' : 'h4'
  const Label = level === 3 ? 'h4' : 'h5'
  const labelClass = 'text-eyebrow uppercase text-ink-500'
  return (
    <article
      className={cx(
        'relative flex h-full flex-col overflow-hidden rounded-panel border border-ink-200/80 bg-white shadow-card',
        className,
      )}
    >
      <div aria-hidden="true" className="h-1.5 bg-linear-to-r from-brand-700 via-brand-500 to-brand-300" />
      <div className="flex flex-1 flex-col gap-7 p-6 sm:p-8">
        <header className="flex flex-col gap-3">
          <p className="inline-flex w-fit items-center rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800 ring-1 ring-brand-100 ring-inset">
            {study.client}
          </p>
          <Title className="text-subtitle text-balance text-ink-950">{study.title}</Title>
        </header>

        <div className="flex flex-col gap-2">
          <Label className={labelClass}>{labels.challenge}</Label>
          <p className="text-pretty text-ink-600">{study.challenge}</p>
        </div>

        <div className="flex flex-col gap-3">
          <Label className={labelClass}>{labels.solution}</Label>
          <ul className="flex flex-col gap-2.5">
            {study.solution.map((item) => (
              <li key={item} className="flex gap-3 text-ink-700">
                <span
                  aria-hidden="true"
                  className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700"
                >
                  <Check className="size-3.5" strokeWidth={3} />
                </span>
                <span>{item}</span>
              </li>
            ))}
          </ul>
        </div>

        <div className="flex flex-col gap-3 rounded-card bg-ink-50 p-5 ring-1 ring-ink-100 ring-inset">
          <Label className={labelClass}>{labels.results}</Label>
          <ul className="flex flex-col gap-2.5">
            {study.results.map((item) => (
              <li key={item} className="flex gap-3 font-semibold text-ink-900">
                <TrendingUp aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success-700" />
                <span>{item}</span>
              </li>
            ))}
          </ul>
        </div>

        <div className="mt-auto pt-1">
          <ActionLink href={study.action.href} variant={study.action.style === 'primary' ? 'primary' : 'secondary'}>
            {study.action.label}
          </ActionLink>
        </div>
      </div>
    </article>
  )
}
