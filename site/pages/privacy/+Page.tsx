import { useData } from 'vike-react/useData'
import { LegalDocument } from '../../components/legal/LegalDocument'
import type { Data } from './+data'

export default function Page() {
  const { page } = useData<Data>()
  return <LegalDocument page={page} />
}
