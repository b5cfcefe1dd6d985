import ArrowRight from 'lucide-react/icons/arrow-right'
import type { TechStackSection as TechStackContent } from '../../schema/TechStackSection'
import { ContentIcon } from '../icons/ContentIcon'
import { Card } from '../ui/Card'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type TechStackSectionProps = {
  section: TechStackContent
}

/** Our Technology Stack: one card per service category, the whole card linking to its page. */
export function TechStackSection({ section }: TechStackSectionProps) {
  return (
    <Section labelledBy="tech-stack-title">
      <Reveal>
        <SectionHeading id="tech-stack-title" {...section.intro} />
      </Reveal>
      <ul role="list" className="mt-14 grid gap-5 sm:grid-cols-2 lg:gap-6 xl:grid-cols-4">
        {section.cards.map((card, i) => (
          <Reveal as="li" key={card.link.href} delay={i * 100} className="flex">
            <Card interactive className="w-full gap-5">
              <span className="grid size-12 place-items-center rounded-xl bg-brand-600 text-white shadow-brand">
                <ContentIcon icon={card.icon} className="size-6" />
              </span>
              <h3 className="text-subtitle text-ink-950">{card.title}</h3>
              <p className="text-pretty text-ink-600">{card.description}</p>
              <ul role="list" className="flex flex-wrap gap-2">
                {card.technologies.map((tech) => (
                  <li key={tech} className="rounded-full bg-ink-100 px-2.5 py-1 text-xs font-medium text-ink-700">
                    {tech}
                  </li>
                ))}
              </ul>
              <a
                href={card.link.href}
                className="group mt-auto inline-flex items-center gap-1.5 pt-2 text-sm font-semibold text-brand-700 after:absolute after:inset-0 after:rounded-card hover:text-brand-800"
              >
                {card.link.label}
                <ArrowRight aria-hidden="true" className="size-4 transition-transform duration-200 group-hover:translate-x-0.5" />
              </a>
            </Card>
          </Reveal>
        ))}
      </ul>
    </Section>
  )
}
