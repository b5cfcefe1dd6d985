import { loadContent } from '../../../lib/content.server'

// One page per service category in content: adding a category in YAML adds its page.
export function onBeforePrerenderStart() {
  return loadContent().services.map((category) => `/services/${category.slug}`)
}
