import { useData } from 'vike-react/useData'
import { Card } from '../../../components/ui/Card'
import { Hero } from '../../../components/ui/Hero'
import { Section } from '../../../components/ui/Section'
import type { Data } from './+data'

export default function Page() {
  const category = useData<Data>()
  return (
    <>
      <Hero hero={category.hero} />
      <Section tone="muted">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {category.sub_services.map((sub) => (
            <Card key={sub.slug} as="li" interactive>
              <h2 className="text-subtitle text-ink-950">
                <a href={sub.href} className="after:absolute after:inset-0 after:rounded-card">
                  {sub.title}
                </a>
              </h2>
              <p className="mt-3 text-ink-600">{sub.lead}</p>
            </Card>
          ))}
        </ul>
      </Section>
    </>
  )
}
