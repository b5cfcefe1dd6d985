import { useData } from 'vike-react/useData'
import { Hero } from '../../../../components/ui/Hero'
import type { Data } from './+data'

export default function Page() {
  const service = useData<Data>()
  return <Hero hero={service.hero} />
}
