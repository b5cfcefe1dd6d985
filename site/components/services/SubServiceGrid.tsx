import ArrowRight from 'lucide-react/icons/arrow-right'
import type { Icon } from '../../schema/Icon'
import type { SectionIntro } from '../../schema/SectionIntro'
import { ContentIcon } from '../icons/ContentIcon'
import { Card } from '../ui/Card'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type SubServiceTeaser = { slug: string; name: string; lead: string; href: string; icon: Icon | null }

export type SubServiceGridProps = {
  /** Heading of the section; without it the card titles become the h2s. */
  intro: SectionIntro | null
  services: SubServiceTeaser[]
  headingId: string
}

/** The category's sub-services as cards, each a link to its page; a short last row is centred. */
export function SubServiceGrid({ intro, services, headingId }: SubServiceGridProps) {
  const Title = intro ? 'h3' : 'h2'
  return (
    <Section tone="muted" labelledBy={intro ? headingId : undefined}>
      {intro && <SectionHeading id={headingId} eyebrow={intro.eyebrow} title={intro.title} lead={intro.lead} />}
      <ul role="list" className="mt-12 flex flex-wrap justify-center gap-5 sm:mt-16 lg:gap-6">
        {services.map((sub) => (
          <Card
            as="li"
            key={sub.slug}
            interactive
            className="group w-full gap-4 sm:w-[calc((100%-1.25rem)/2)] sm:p-7 lg:w-[calc((100%-3rem)/3)]"
          >
            {sub.icon && (
              <span
                aria-hidden="true"
                className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100 transition-colors duration-200 group-hover:bg-brand-600 group-hover:text-white"
              >
                <ContentIcon icon={sub.icon} className="size-6" />
              </span>
            )}
            <Title className="text-subtitle text-ink-950">
              <a
                href={sub.href}
                className="after:absolute after:inset-0 after:rounded-card focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand-600"
              >
                {sub.name}
              </a>
            </Title>
            <p className="flex-1 text-pretty text-ink-600">{sub.lead}</p>
            <ArrowRight
              aria-hidden="true"
              className="size-5 text-brand-600 transition-transform duration-200 group-hover:translate-x-1"
            />
          </Card>
        ))}
      </ul>
    </Section>
  )
}
