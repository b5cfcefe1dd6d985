import type { IslandName, islandComponents } from './components'

/**
 * How the browser fetches each island's component: one chunk per island, so a page loads only
 * its own form. The type ties each loader to the component the server rendered (components.ts).
 */
export const islandLoaders: { [N in IslandName]: () => Promise<(typeof islandComponents)[N]> } = {
  'contact-form': () => import('../components/forms/ContactForm').then((m) => m.ContactForm),
  'enquiry-form': () => import('../components/forms/EnquiryForm').then((m) => m.EnquiryForm),
  'newsletter-form': () => import('../components/forms/NewsletterForm').then((m) => m.NewsletterForm),
}
