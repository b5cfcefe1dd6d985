import type { TeamSection as TeamContent } from '../../schema/TeamSection'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'
import { Card } from '../ui/Card'
import { Picture } from '../ui/Picture'

export type TeamSectionProps = {
  section: TeamContent
}

/** Leadership Team: a card per person with portrait, name, role and bio. */
export function TeamSection({ section }: TeamSectionProps) {
  return (
    <Section tone="muted" labelledBy="team-title">
      <Reveal>
        <SectionHeading id="team-title" {...section.intro} />
      </Reveal>
      <ul role="list" className="mt-14 grid gap-6 sm:grid-cols-2 xl:grid-cols-4">
        {section.people.map((person, i) => (
          <Reveal as="li" key={person.name} delay={i * 100}>
            <Card as="article" padding="none" className="h-full overflow-hidden">
              <Picture
                src={person.avatar}
                alt={person.avatar_alt}
                width={400}
                height={300}
                sizes="(min-width: 1280px) 18rem, (min-width: 640px) 50vw, 100vw"
                className="aspect-[4/3] w-full object-cover"
              />
              <div className="flex flex-1 flex-col gap-2 p-6">
                <h3 className="text-subtitle text-ink-950">{person.name}</h3>
                <p className="text-sm font-semibold text-brand-700">{person.role}</p>
                <p className="mt-1 text-pretty text-ink-600">{person.bio}</p>
              </div>
            </Card>
          </Reveal>
        ))}
      </ul>
    </Section>
  )
}
