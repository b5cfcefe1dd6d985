import { loadContent } from '../../lib/content.server'

export type Data = ReturnType<typeof data>

/** The page's words (with its `meta`), the form's words and dialling codes, and where the form posts. */
export function data() {
  const { pages, forms, countries, settings } = loadContent()
  return {
    ...pages.contact,
    form: forms.contact,
    countries,
    endpoint: settings.contact_endpoint,
  }
}
