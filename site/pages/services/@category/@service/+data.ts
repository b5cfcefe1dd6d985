import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'
import { loadContent } from '../../../../lib/content.server'

export type Data = ReturnType<typeof data>

export function data(pageContext: PageContextServer) {
  const { category: categorySlug, service: serviceSlug } = pageContext.routeParams
  const category = loadContent().services.find((c) => c.slug === categorySlug)
  const service = category?.sub_services.find((s) => s.slug === serviceSlug)
  if (!category || !service) throw render(404)
  const { meta, hero, blurb, tiles } = service
  return { meta, hero, blurb, tiles }
}
