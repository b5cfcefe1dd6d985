import { useData } from 'vike-react/useData'
import { ProcessSection } from '../../../components/services/ProcessSection'
import { ServiceCategoryCards } from '../../../components/services/ServiceCategoryCards'
import { CtaBand } from '../../../components/ui/CtaBand'
import { Hero } from '../../../components/ui/Hero'
import type { Data } from './+data'

export default function Page() {
  const { page, categories } = useData<Data>()
  return (
    <>
      <Hero hero={page.hero} headingId="services-hero-title" />
      <ServiceCategoryCards section={page.categories} categories={categories} />
      <ProcessSection section={page.process} />
      <CtaBand cta={page.cta} />
    </>
  )
}
