import { useData } from 'vike-react/useData'
import { BlurbSection } from '../../../../components/services/BlurbSection'
import { TilesSection } from '../../../../components/services/TilesSection'
import { Hero } from '../../../../components/ui/Hero'
import type { Data } from './+data'

export default function Page() {
  const { page: service } = useData<Data>()
  return (
    <>
      <Hero hero={service.hero} />
      {service.blurb && <BlurbSection blurb={service.blurb} headingId="about-title" />}
      {service.tiles && <TilesSection tiles={service.tiles} headingId="tiles-title" />}
    </>
  )
}
