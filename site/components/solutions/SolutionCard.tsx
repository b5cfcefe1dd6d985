import ArrowRight from 'lucide-react/icons/arrow-right'
import Check from 'lucide-react/icons/check'
import TrendingUp from 'lucide-react/icons/trending-up'
import type { Solution } from '../../schema/Solution'
import { ContentIcon } from '../icons/ContentIcon'

export type SolutionCardProps = {
  solution: Solution
  /** Heading of the features list (`What you get`). */
  featuresLabel: string
  /** Heading of the benefits list (`Business impact`). */
  benefitsLabel: string
}

/** A core solution: what it is, what it includes, what it achieves and where to learn more. */
export function SolutionCard({ solution, featuresLabel, benefitsLabel }: SolutionCardProps) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-panel border border-ink-200/80 bg-white shadow-card transition-[box-shadow,border-color] duration-200 hover:border-brand-200 hover:shadow-elevated">
      <div className="flex flex-1 flex-col gap-7 p-6 sm:p-8">
        <header className="flex flex-col gap-4">
          <span className="grid size-14 place-items-center rounded-2xl bg-linear-to-br from-brand-600 to-brand-800 text-white shadow-brand">
            <ContentIcon icon={solution.icon} className="size-7" />
          </span>
          <h3 className="text-subtitle text-balance text-ink-950">{solution.title}</h3>
          <p className="text-pretty text-ink-600">{solution.description}</p>
        </header>

        <div className="grid gap-6 sm:grid-cols-2">
          <div className="flex flex-col gap-3">
            <h4 className="text-eyebrow text-ink-500 uppercase">{featuresLabel}</h4>
            <ul className="flex flex-col gap-2.5">
              {solution.features.map((feature) => (
                <li key={feature} className="flex gap-3 text-sm text-ink-700">
                  <span
                    aria-hidden="true"
                    className="mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-brand-100 text-brand-700"
                  >
                    <Check className="size-3.5" strokeWidth={3} />
                  </span>
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="flex flex-col gap-3 rounded-card bg-ink-50 p-4 ring-1 ring-ink-100 ring-inset">
            <h4 className="text-eyebrow text-ink-500 uppercase">{benefitsLabel}</h4>
            <ul className="flex flex-col gap-2.5">
              {solution.benefits.map((benefit) => (
                <li key={benefit} className="flex gap-3 text-sm font-semibold text-ink-900">
                  <TrendingUp aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success-700" />
                  <span>{benefit}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="mt-auto border-t border-ink-100 pt-5">
          <a
            href={solution.link.href}
            className="group/link inline-flex items-center gap-2 rounded-sm font-semibold text-brand-700 hover:text-brand-800"
          >
            {solution.link.label}
            <ArrowRight
              aria-hidden="true"
              className="size-4 transition-transform duration-200 group-hover/link:translate-x-0.5"
            />
          </a>
        </div>
      </div>
    </article>
  )
}
