import { routesOf } from '../../../../lib/content.server'

// One page per sub-service route in the model: adding a sub-service in YAML adds its page.
export function onBeforePrerenderStart() {
  return routesOf('sub-service').map((route) => route.path)
}
