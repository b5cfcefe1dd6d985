import type { StatsSection as StatsContent } from '../../schema/StatsSection'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'
import { StatsRow } from '../ui/StatsRow'

export type StatsSectionProps = {
  section: StatsContent
}

/** Trusted by industry leaders: the headline figures on a dark band. */
export function StatsSection({ section }: StatsSectionProps) {
  return (
    <Section tone="dark" labelledBy="stats-title" className="overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(50rem_24rem_at_50%_0%,rgb(79_70_229/0.35),transparent_70%)]"
      />
      <Reveal className="relative">
        <SectionHeading id="stats-title" on="dark" {...section.intro} />
        <StatsRow stats={section.items} on="dark" variant="card" className="mt-14" />
      </Reveal>
    </Section>
  )
}
