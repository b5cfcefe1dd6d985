import type { CaseStudySection } from '../../schema/CaseStudySection'
import { cx } from '../../lib/cx'
import { CaseStudyCard } from './CaseStudyCard'
import { Section, type SectionTone } from './Section'
import { SectionHeading } from './SectionHeading'

export type CaseStudyGridProps = {
  section: CaseStudySection
  /** Id of the section's h2. */
  headingId: string
  tone?: SectionTone
}

/** A section of case-study cards under a heading: one column on phones, two from `lg`. */
export function CaseStudyGrid({ section, headingId, tone = 'plain' }: CaseStudyGridProps) {
  const { intro, labels, items } = section
  return (
    <Section tone={tone} labelledBy={headingId}>
      <SectionHeading id={headingId} eyebrow={intro.eyebrow} title={intro.title} lead={intro.lead} />
      <ul role="list" className={cx('mt-12 grid gap-6 sm:mt-16 lg:gap-8', items.length > 1 && 'lg:grid-cols-2')}>
        {items.map((study) => (
          <li key={study.title}>
            <CaseStudyCard study={study} labels={labels} />
          </li>
        ))}
      </ul>
    </Section>
  )
}
