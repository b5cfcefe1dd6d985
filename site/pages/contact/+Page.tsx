import { useData } from 'vike-react/useData'
import { ContactCardList } from '../../components/contact/ContactCardList'
import { Container } from '../../components/ui/Container'
import { FaqAccordion } from '../../components/ui/FaqAccordion'
import { Hero } from '../../components/ui/Hero'
import { Section } from '../../components/ui/Section'
import { Island } from '../../islands/Island'
import { siteSettings } from '../../lib/settings'
import type { Data } from './+data'

export default function Page() {
  const { page, form, countries, countryCode, endpoint } = useData<Data>()
  const { hero, cards, faq } = page
  return (
    <>
      <Hero hero={hero} />

      <div className="relative -mt-8 pb-20 sm:-mt-12 sm:pb-24 lg:pb-28">
        <Container className="grid items-start gap-10 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)] lg:gap-12">
          <div className="rounded-panel border border-ink-200/80 bg-white p-6 shadow-elevated sm:p-10">
            <Island name="contact-form" hydrate="idle" props={{ form, countries, countryCode, endpoint }} />
          </div>
          <div className="lg:sticky lg:top-28 lg:pt-10">
            <ContactCardList cards={cards} contact={siteSettings().contact} headingId="contact-cards-title" />
          </div>
        </Container>
      </div>

      <Section tone="muted" labelledBy="contact-faq-title">
        <FaqAccordion faq={faq} group="contact-faq" headingId="contact-faq-title" layout="split" />
      </Section>
    </>
  )
}
