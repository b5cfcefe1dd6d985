import { loadContent } from '../../lib/content.server'

export type Data = ReturnType<typeof data>

export function data() {
  const { pages, forms, settings } = loadContent()
  return { page: pages.home, enquiry: forms.enquiry, endpoint: settings.contact_endpoint }
}
