import type { LogoSection } from '../../schema/LogoSection'
import { LogoGrid } from '../ui/LogoGrid'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type PartnersSectionProps = {
  section: LogoSection
}

/** Our Platform Partnerships: the partners' logos under a heading. */
export function PartnersSection({ section }: PartnersSectionProps) {
  return (
    <Section tone="muted" labelledBy="partners-title">
      <Reveal>
        <SectionHeading id="partners-title" {...section.intro} />
        <LogoGrid logos={section.logos} className="mx-auto mt-12 max-w-5xl" />
      </Reveal>
    </Section>
  )
}
