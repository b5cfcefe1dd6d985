import type { PurposeSection } from '../../schema/PurposeSection'
import { ContentIcon } from '../icons/ContentIcon'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type MissionVisionSectionProps = {
  section: PurposeSection
}

/** Mission and Vision: one large card each. */
export function MissionVisionSection({ section }: MissionVisionSectionProps) {
  return (
    <Section labelledBy="mission-vision-title">
      <Reveal>
        <SectionHeading id="mission-vision-title" {...section.intro} />
      </Reveal>
      <ul role="list" className="mt-14 grid gap-6 md:grid-cols-2">
        {section.items.map((item, i) => (
          <Reveal as="li" key={item.title} delay={i * 120}>
            <div className="relative flex h-full flex-col gap-5 overflow-hidden rounded-panel border border-ink-200/80 bg-gradient-to-br from-white to-brand-50/60 p-8 shadow-card sm:p-10">
              <span className="grid size-14 place-items-center rounded-2xl bg-brand-600 text-white shadow-brand">
                <ContentIcon icon={item.icon} className="size-7" />
              </span>
              <h3 className="text-2xl font-bold tracking-tight text-ink-950">{item.title}</h3>
              <p className="text-pretty text-lead text-ink-600">{item.description}</p>
            </div>
          </Reveal>
        ))}
      </ul>
    </Section>
  )
}
