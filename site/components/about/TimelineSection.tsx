import type { TimelineSection as TimelineContent } from '../../schema/TimelineSection'
import { cx } from '../../lib/cx'
import { ContentIcon } from '../icons/ContentIcon'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'
import { Card } from '../ui/Card'

export type TimelineSectionProps = {
  section: TimelineContent
}

/**
 * Our Journey to Excellence: milestones on a vertical line, alternating sides on wide screens
 * and all on the right of the line on phones.
 */
export function TimelineSection({ section }: TimelineSectionProps) {
  return (
    <Section tone="muted" labelledBy="timeline-title">
      <Reveal>
        <SectionHeading id="timeline-title" {...section.intro} />
      </Reveal>
      <ol role="list" className="relative mx-auto mt-16 flex max-w-5xl flex-col gap-10 md:gap-4">
        <span
          aria-hidden="true"
          className="absolute top-2 bottom-2 left-6 w-px bg-gradient-to-b from-brand-300 via-brand-500 to-brand-300 md:left-1/2"
        />
        {section.entries.map((entry, i) => {
          const right = i % 2 === 1
          return (
            <Reveal
              as="li"
              key={entry.year}
              className="relative grid grid-cols-[3rem_1fr] gap-5 md:grid-cols-[1fr_3rem_1fr] md:gap-8"
            >
              <span className="relative z-10 grid size-12 place-items-center rounded-full bg-brand-600 text-white shadow-brand ring-4 ring-ink-50 md:col-start-2 md:row-start-1">
                <ContentIcon icon={entry.icon} className="size-5" />
              </span>
              <Card className={cx('gap-2 md:row-start-1', right ? 'md:col-start-3' : 'md:col-start-1 md:text-right')}>
                <p className="text-sm font-bold tracking-widest text-brand-700 tabular-nums">{entry.year}</p>
                <h3 className="text-subtitle text-ink-950">{entry.title}</h3>
                <p className="text-pretty text-ink-600">{entry.description}</p>
              </Card>
            </Reveal>
          )
        })}
      </ol>
    </Section>
  )
}
