import { loadContent } from '../../../../lib/content.server'

// One page per sub-service in content: adding a sub-service in YAML adds its page.
export function onBeforePrerenderStart() {
  return loadContent().services.flatMap((category) =>
    category.sub_services.map((sub) => `/services/${category.slug}/${sub.slug}`),
  )
}
