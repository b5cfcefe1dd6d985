import { useData } from 'vike-react/useData'
import { BenefitsSection } from '../../components/home/BenefitsSection'
import { EnquirySection } from '../../components/home/EnquirySection'
import { HomeHero } from '../../components/home/HomeHero'
import { PartnersSection } from '../../components/home/PartnersSection'
import { StatsSection } from '../../components/home/StatsSection'
import { TechStackSection } from '../../components/home/TechStackSection'
import { CtaBand } from '../../components/ui/CtaBand'
import { FaqAccordion } from '../../components/ui/FaqAccordion'
import { Reveal } from '../../components/ui/Reveal'
import { Section } from '../../components/ui/Section'
import type { Data } from './+data'

export default function Page() {
  const { page, enquiry, phonePrefix, endpoint } = useData<Data>()
  return (
    <>
      <HomeHero hero={page.hero} />
      <TechStackSection section={page.tech_stack} />
      <PartnersSection section={page.partners} />
      <BenefitsSection section={page.benefits} />
      <Section tone="muted" labelledBy="home-faq-title">
        <Reveal>
          <FaqAccordion faq={page.faq} group="home-faq" headingId="home-faq-title" layout="split" />
        </Reveal>
      </Section>
      <StatsSection section={page.stats} />
      <EnquirySection section={page.enquiry} form={enquiry} phonePrefix={phonePrefix} endpoint={endpoint} />
      <CtaBand cta={page.cta} />
    </>
  )
}
