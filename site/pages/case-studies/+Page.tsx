import { useData } from 'vike-react/useData'
import { CaseStudyGrid } from '../../components/ui/CaseStudyGrid'
import { CtaBand } from '../../components/ui/CtaBand'
import { Hero } from '../../components/ui/Hero'
import { HeroStats } from '../../components/ui/HeroStats'
import type { Data } from './+data'

export default function Page() {
  const { page } = useData<Data>()
  return (
    <>
      <Hero hero={page.hero} />
      <HeroStats stats={page.highlights} />
      <CaseStudyGrid section={page.stories} headingId="stories-title" />
      <CtaBand cta={page.call_to_action} />
    </>
  )
}
