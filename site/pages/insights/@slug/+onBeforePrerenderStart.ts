import { routesOf } from '../../../lib/content.server'

// One page per article in the model: adding a Markdown file under content/articles/ adds its page.
export function onBeforePrerenderStart() {
  return routesOf('article').map((route) => route.path)
}
