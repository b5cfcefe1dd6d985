// The React islands: the only components whose code reaches the browser, each hydrated in place
// of its server HTML once the visitor reaches for it (Island.tsx renders one, hydrate.tsx brings
// it to life, loaders.ts fetches its code). All are forms with real client state: sending,
// field errors, toasts.
import type { ComponentProps } from 'react'
import { ContactForm } from '../components/forms/ContactForm'
import { EnquiryForm } from '../components/forms/EnquiryForm'
import { NewsletterForm } from '../components/forms/NewsletterForm'

export const islandComponents = {
  'contact-form': ContactForm,
  'enquiry-form': EnquiryForm,
  'newsletter-form': NewsletterForm,
}

export type IslandName = keyof typeof islandComponents
export type IslandProps<N extends IslandName> = ComponentProps<(typeof islandComponents)[N]>
