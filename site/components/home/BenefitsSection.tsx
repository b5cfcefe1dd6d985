import type { FeatureSection } from '../../schema/FeatureSection'
import { FeatureGrid } from '../ui/FeatureGrid'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type BenefitsSectionProps = {
  section: FeatureSection
}

/** Why engineering teams love us: the benefit tiles. */
export function BenefitsSection({ section }: BenefitsSectionProps) {
  return (
    <Section labelledBy="benefits-title">
      <Reveal>
        <SectionHeading id="benefits-title" {...section.intro} />
      </Reveal>
      <FeatureGrid features={section.items} reveal className="mt-14" />
    </Section>
  )
}
