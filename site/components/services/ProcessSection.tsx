import type { ProcessSection as ProcessContent } from '../../schema/ProcessSection'
import { ProcessSteps } from '../ui/ProcessSteps'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type ProcessSectionProps = {
  section: ProcessContent
}

/** Our Proven Process: the numbered steps under a heading. */
export function ProcessSection({ section }: ProcessSectionProps) {
  return (
    <Section tone="muted" labelledBy="process-title">
      <Reveal>
        <SectionHeading id="process-title" {...section.intro} />
        <ProcessSteps steps={section.steps} className="mt-14" />
      </Reveal>
    </Section>
  )
}
