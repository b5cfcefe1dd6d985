import { routeOfKind } from '../../../lib/content.server'

export default routeOfKind('contact-error')
