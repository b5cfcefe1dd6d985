import type { LeadershipSection as LeadershipContent } from '../../schema/LeadershipSection'
import { FeatureGrid } from '../ui/FeatureGrid'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'
import { StatsRow } from '../ui/StatsRow'

export type LeadershipSectionProps = {
  section: LeadershipContent
}

/** Leadership That Drives Innovation: the figures beside the heading, the strengths below. */
export function LeadershipSection({ section }: LeadershipSectionProps) {
  return (
    <Section tone="muted" labelledBy="leadership-title">
      <Reveal className="grid items-center gap-12 lg:grid-cols-2 lg:gap-16">
        <SectionHeading id="leadership-title" align="left" {...section.intro} />
        <StatsRow stats={section.stats} variant="card" columns={2} />
      </Reveal>
      <FeatureGrid features={section.items} columns={3} reveal className="mt-14" />
    </Section>
  )
}
