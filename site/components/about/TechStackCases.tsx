import type { AboutStackSection } from '../../schema/AboutStackSection'
import { ContentIcon } from '../icons/ContentIcon'
import { LogoGrid } from '../ui/LogoGrid'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'
import { Card } from '../ui/Card'

export type TechStackCasesProps = {
  section: AboutStackSection
}

/** Our Technology Stack: the logo groups, then one card per delivery case. */
export function TechStackCases({ section }: TechStackCasesProps) {
  const { case_labels: labels } = section
  return (
    <Section labelledBy="about-stack-title">
      <Reveal>
        <SectionHeading id="about-stack-title" {...section.intro} />
      </Reveal>
      <div className="mt-14 grid gap-10 lg:grid-cols-2 lg:gap-8">
        {section.groups.map((group) => (
          <Reveal key={group.title} className="flex flex-col gap-5 rounded-panel border border-ink-200/80 bg-ink-50 p-6 sm:p-8">
            <h3 className="text-subtitle text-ink-950">{group.title}</h3>
            <LogoGrid logos={group.logos} columns={2} />
          </Reveal>
        ))}
      </div>
      <ul role="list" className="mt-10 grid gap-6 lg:grid-cols-3">
        {section.cases.map((item, i) => (
          <Reveal as="li" key={item.title} delay={i * 100}>
            <Card as="article" className="h-full gap-5 sm:p-8">
              <div className="flex items-center gap-4">
                <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
                  <ContentIcon icon={item.icon} className="size-6" />
                </span>
                <h3 className="text-subtitle text-ink-950">{item.title}</h3>
              </div>
              <ul role="list" className="flex flex-wrap gap-2">
                {item.technologies.map((tech) => (
                  <li key={tech} className="rounded-full bg-ink-100 px-2.5 py-1 text-xs font-medium text-ink-700">
                    {tech}
                  </li>
                ))}
              </ul>
              <dl className="flex flex-col gap-4 border-t border-ink-100 pt-5">
                <div className="flex flex-col gap-1">
                  <dt className="text-eyebrow text-ink-500 uppercase">{labels.challenge}</dt>
                  <dd className="text-pretty text-ink-700">{item.challenge}</dd>
                </div>
                <div className="flex flex-col gap-1">
                  <dt className="text-eyebrow text-ink-500 uppercase">{labels.solution}</dt>
                  <dd className="text-pretty text-ink-700">{item.solution}</dd>
                </div>
                <div className="mt-auto flex flex-col gap-1 rounded-xl bg-success-50 p-4">
                  <dt className="text-eyebrow text-success-700 uppercase">{labels.result}</dt>
                  <dd className="font-medium text-pretty text-ink-900">{item.result}</dd>
                </div>
              </dl>
            </Card>
          </Reveal>
        ))}
      </ul>
    </Section>
  )
}
