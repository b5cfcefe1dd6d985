import { useData } from 'vike-react/useData'
import { PlatformCard } from '../../components/solutions/PlatformCard'
import { SolutionCard } from '../../components/solutions/SolutionCard'
import { TestimonialCard } from '../../components/solutions/TestimonialCard'
import { CtaBand } from '../../components/ui/CtaBand'
import { Hero } from '../../components/ui/Hero'
import { ProcessSteps } from '../../components/ui/ProcessSteps'
import { Reveal } from '../../components/ui/Reveal'
import { Section } from '../../components/ui/Section'
import { SectionHeading } from '../../components/ui/SectionHeading'
import type { Data } from './+data'

export default function Page() {
  const { hero, solutions, platforms, process, testimonials, cta } = useData<Data>().page
  return (
    <>
      <Hero hero={hero} />

      <Section labelledBy="solutions-title">
        <SectionHeading id="solutions-title" {...solutions.intro} />
        <ul role="list" className="mt-14 grid gap-6 lg:grid-cols-2 lg:gap-8">
          {solutions.items.map((solution, i) => (
            <Reveal as="li" key={solution.title} delay={(i % 2) * 100}>
              <SolutionCard
                solution={solution}
                featuresLabel={solutions.features_label}
                benefitsLabel={solutions.benefits_label}
              />
            </Reveal>
          ))}
        </ul>
      </Section>

      <Section tone="muted" labelledBy="platforms-title">
        <SectionHeading id="platforms-title" {...platforms.intro} />
        <ul role="list" className="mt-14 grid gap-5 sm:grid-cols-2 lg:gap-6 xl:grid-cols-4">
          {platforms.items.map((platform, i) => (
            <Reveal as="li" key={platform.name} delay={i * 100}>
              <PlatformCard platform={platform} />
            </Reveal>
          ))}
        </ul>
      </Section>

      <Section labelledBy="process-title">
        <SectionHeading id="process-title" {...process.intro} />
        <ProcessSteps steps={process.steps} className="mt-14" />
      </Section>

      <Section tone="dark" labelledBy="testimonials-title" className="overflow-hidden">
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(50rem_24rem_at_50%_0%,rgb(79_70_229/0.35),transparent_70%)]"
        />
        <div className="relative">
          <SectionHeading id="testimonials-title" on="dark" {...testimonials.intro} />
          <ul role="list" className="mt-14 grid gap-6 lg:grid-cols-3">
            {testimonials.items.map((testimonial, i) => (
              <Reveal as="li" key={testimonial.author} delay={i * 100}>
                <TestimonialCard testimonial={testimonial} ratingLabel={testimonials.rating_label} />
              </Reveal>
            ))}
          </ul>
        </div>
      </Section>

      <CtaBand cta={cta} />
    </>
  )
}
