import { useData } from 'vike-react/useData'
import { SubServiceGrid } from '../../../components/services/SubServiceGrid'
import { CaseStudyGrid } from '../../../components/ui/CaseStudyGrid'
import { Hero } from '../../../components/ui/Hero'
import type { Data } from './+data'

export default function Page() {
  const { page: category, sub_services } = useData<Data>()
  return (
    <>
      <Hero hero={category.hero} />
      <SubServiceGrid intro={category.services_intro} services={sub_services} headingId="services-title" />
      {category.case_studies && <CaseStudyGrid section={category.case_studies} headingId="case-studies-title" />}
    </>
  )
}
