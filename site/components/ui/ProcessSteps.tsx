import type { ProcessStep } from '../../schema/ProcessStep'
import { cx } from '../../lib/cx'

export type ProcessStepsProps = {
  /** Numbered steps (`{ step, title, description }`), from content, in order. */
  steps: ProcessStep[]
  /** Heading level of each step's title: 3 under a section h2 (default), 4 under an h3. */
  headingLevel?: 3 | 4
  /** `light` on white/muted sections, `dark` on ink sections. */
  on?: 'light' | 'dark'
  className?: string
}

/**
 * A numbered process as an ordered list: stacked on phones, two columns on tablets, one row
 * joined by a line from `lg` up (four steps fit best).
 */
export function ProcessSteps({ steps, headingLevel = 3, on = 'light', className }: ProcessStepsProps) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4'
  const light = on === 'light'
  return (
    <ol
      role="list"
      className={cx(
        'relative grid gap-8 sm:grid-cols-2 lg:gap-6',
        steps.length >= 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3',
        className,
      )}
    >
      {steps.map((step, i) => (
        <li key={step.step} className="relative grid grid-cols-[3.5rem_1fr] gap-x-5 gap-y-2 sm:flex sm:flex-col sm:gap-4">
          {i < steps.length - 1 && (
            <span
              aria-hidden="true"
              className={cx(
                'absolute top-7 left-16 hidden h-px w-[calc(100%-4rem)] lg:block',
                light ? 'bg-gradient-to-r from-brand-300 to-ink-200' : 'bg-white/20',
              )}
            />
          )}
          <span
            className={cx(
              'relative row-span-2 grid size-14 place-items-center rounded-2xl text-lg font-bold tabular-nums',
              light ? 'bg-brand-600 text-white shadow-brand' : 'bg-white text-brand-800',
            )}
          >
            {step.step}
          </span>
          <Heading className={cx('self-end text-subtitle sm:self-auto', light ? 'text-ink-950' : 'text-white')}>
            {step.title}
          </Heading>
          <p className={cx('col-start-2 text-pretty', light ? 'text-ink-600' : 'text-ink-300')}>{step.description}</p>
        </li>
      ))}
    </ol>
  )
}
