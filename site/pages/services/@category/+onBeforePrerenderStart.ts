import { routesOf } from '../../../lib/content.server'

// One page per service category route in the model: adding a category in YAML adds its page.
export function onBeforePrerenderStart() {
  return routesOf('service-category').map((route) => route.path)
}
