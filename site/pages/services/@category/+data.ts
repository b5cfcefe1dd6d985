import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'
import { loadContent } from '../../../lib/content.server'

export type Data = ReturnType<typeof data>

export function data(pageContext: PageContextServer) {
  const category = loadContent().services.find((c) => c.slug === pageContext.routeParams.category)
  if (!category) throw render(404)
  return {
    ...category,
    // Sub-services appear here as teasers only; their full content belongs to their own pages.
    sub_services: category.sub_services.map(({ slug, hero }) => ({
      slug,
      href: `/services/${category.slug}/${slug}`,
      title: hero.title,
      lead: hero.lead,
    })),
  }
}
