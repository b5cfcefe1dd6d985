import Plus from 'lucide-react/icons/plus'
import type { Faq } from '../../schema/Faq'
import { cx } from '../../lib/cx'
import { SectionHeading } from './SectionHeading'

export type FaqAccordionProps = {
  /** The section's heading block and its questions, from content. */
  faq: Faq
  /**
   * Name shared by the accordion's `<details>` elements, which makes them exclusive: opening one
   * closes the others. Unique per accordion on a page (e.g. `home-faq`).
   */
  group: string
  /** Id of the heading, to pass to `Section labelledBy`. */
  headingId?: string
  /** `stacked`: heading above the questions; `split`: heading beside them on wide screens. */
  layout?: 'stacked' | 'split'
  className?: string
}

/**
 * An FAQ: the section heading and an accordion of questions. Built on exclusive
 * `<details name>` elements, so one item is open at a time, the open one closes when its
 * question is clicked again, and keyboard use (Tab, Enter, Space) works without JavaScript.
 */
export function FaqAccordion({ faq, group, headingId, layout = 'stacked', className }: FaqAccordionProps) {
  const split = layout === 'split'
  return (
    <div className={cx(split ? 'grid gap-10 lg:grid-cols-[0.8fr_1.2fr] lg:gap-16' : 'flex flex-col gap-12', className)}>
      <SectionHeading
        id={headingId}
        eyebrow={faq.intro.eyebrow}
        title={faq.intro.title}
        lead={faq.intro.lead}
        align={split ? 'left' : 'center'}
        className={split ? 'lg:sticky lg:top-28 lg:self-start' : undefined}
      />
      <div className={cx('flex w-full flex-col gap-3', !split && 'mx-auto max-w-3xl')}>
        {faq.items.map((item) => (
          <details
            key={item.question}
            name={group}
            className="group rounded-card border border-ink-200/80 bg-white shadow-xs transition-[border-color,box-shadow] duration-200 open:border-brand-200 open:shadow-card"
          >
            <summary className="flex cursor-pointer list-none items-center justify-between gap-6 rounded-card px-5 py-4 text-left text-base font-semibold text-ink-900 transition-colors hover:text-brand-700 sm:px-6 sm:py-5 sm:text-lg [&::-webkit-details-marker]:hidden">
              <span>{item.question}</span>
              <span
                aria-hidden="true"
                className="grid size-8 shrink-0 place-items-center rounded-full bg-ink-100 text-ink-700 transition-[transform,background-color,color] duration-200 group-open:rotate-45 group-open:bg-brand-600 group-open:text-white"
              >
                <Plus className="size-4" />
              </span>
            </summary>
            <p className="px-5 pb-5 text-pretty text-ink-600 sm:px-6 sm:pb-6">{item.answer}</p>
          </details>
        ))}
      </div>
    </div>
  )
}
