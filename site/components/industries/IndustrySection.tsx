import type { IndustryList } from '../../schema/IndustryList'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'
import { IndustryBlock } from './IndustryBlock'

export type IndustrySectionProps = {
  list: IndustryList
  headingId: string
}

/** The industry blocks under a heading, the illustration alternating sides. */
export function IndustrySection({ list, headingId }: IndustrySectionProps) {
  return (
    <Section labelledBy={headingId}>
      <SectionHeading id={headingId} eyebrow={list.intro.eyebrow} title={list.intro.title} lead={list.intro.lead} />
      <ul role="list" className="mt-16 flex flex-col gap-20 sm:mt-20 lg:gap-28">
        {list.items.map((industry, i) => (
          <Reveal as="li" key={industry.title}>
            <IndustryBlock
              industry={industry}
              solutionsLabel={list.solutions_label}
              explore={list.explore}
              flipped={i % 2 === 1}
            />
          </Reveal>
        ))}
      </ul>
    </Section>
  )
}
