import { useData } from 'vike-react/useData'
import { IndustrySection } from '../../components/industries/IndustrySection'
import { CtaBand } from '../../components/ui/CtaBand'
import { FeatureGrid } from '../../components/ui/FeatureGrid'
import { Hero } from '../../components/ui/Hero'
import { HeroStats } from '../../components/ui/HeroStats'
import { Section } from '../../components/ui/Section'
import { SectionHeading } from '../../components/ui/SectionHeading'
import type { Data } from './+data'

export default function Page() {
  const { page } = useData<Data>()
  const { intro, items } = page.technologies
  return (
    <>
      <Hero hero={page.hero} />
      <HeroStats stats={page.stats} />
      <IndustrySection list={page.industries} headingId="industries-title" />
      <Section tone="muted" labelledBy="technologies-title">
        <SectionHeading id="technologies-title" eyebrow={intro.eyebrow} title={intro.title} lead={intro.lead} />
        <FeatureGrid features={items} columns={4} reveal className="mt-12 sm:mt-16" />
      </Section>
      <CtaBand cta={page.call_to_action} />
    </>
  )
}
