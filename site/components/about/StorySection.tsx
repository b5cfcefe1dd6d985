import Quote from 'lucide-react/icons/quote'
import type { StorySection as StoryContent } from '../../schema/StorySection'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type StorySectionProps = {
  section: StoryContent
}

/** Our Story: running text beside a quotation. */
export function StorySection({ section }: StorySectionProps) {
  return (
    <Section labelledBy="story-title">
      <Reveal className="grid gap-12 lg:grid-cols-[1.2fr_0.8fr] lg:gap-20">
        <div className="flex flex-col gap-6">
          <SectionHeading id="story-title" align="left" {...section.intro} />
          <div className="flex flex-col gap-5 text-lg text-pretty text-ink-600">
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </div>
        <figure className="relative isolate flex flex-col justify-end overflow-hidden rounded-panel bg-brand-700 p-8 text-white shadow-elevated sm:p-10 lg:self-stretch">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(30rem_20rem_at_100%_0%,rgb(129_140_248/0.6),transparent_70%),radial-gradient(24rem_16rem_at_0%_100%,rgb(30_27_75/0.7),transparent_70%)]"
          />
          <Quote aria-hidden="true" className="mb-6 size-10 text-brand-200" />
          <blockquote className="text-2xl leading-snug font-semibold tracking-tight text-balance sm:text-3xl">
            <p>{section.quote}</p>
          </blockquote>
        </figure>
      </Reveal>
    </Section>
  )
}
