import { useData } from 'vike-react/useData'
import { Hero } from '../../../components/ui/Hero'
import type { Data } from './+data'

export default function Page() {
  const { page } = useData<Data>()
  return <Hero hero={page.hero} />
}
