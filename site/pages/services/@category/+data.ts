import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'
import { loadContent } from '../../../lib/content.server'
import type { SubServiceTeaser } from '../../../components/services/SubServiceGrid'

export type Data = ReturnType<typeof data>

export function data(pageContext: PageContextServer) {
  const category = loadContent().services.find((c) => c.slug === pageContext.routeParams.category)
  if (!category) throw render(404)
  const { meta, hero, services_intro, case_studies } = category
  // Sub-services appear here as teasers only; their full content belongs to their own pages.
  const sub_services: SubServiceTeaser[] = category.sub_services.map(({ slug, name, icon, hero }) => ({
    slug,
    name,
    icon,
    href: `/services/${category.slug}/${slug}`,
    lead: hero.lead,
  }))
  return { meta, hero, services_intro, case_studies, sub_services }
}
