import { routesOf } from '../../../lib/content.server'

// One page per step of the newsletter's double opt-in that contact-fn sends visitors to
// (pending, confirmed, invalid, unsubscribed, failed: the form contract's list).
export function onBeforePrerenderStart() {
  return routesOf('newsletter').map((route) => route.path)
}
