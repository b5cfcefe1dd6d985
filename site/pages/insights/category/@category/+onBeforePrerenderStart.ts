import { routesOf } from '../../../../lib/content.server'

// One listing per service category: the filter's choices without JavaScript.
export function onBeforePrerenderStart() {
  return routesOf('insights-category').map((route) => route.path)
}
