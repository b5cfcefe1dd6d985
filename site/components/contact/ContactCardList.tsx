import type { ContactCards } from '../../schema/ContactCards'
import type { ContactDetails } from '../../schema/ContactDetails'
import type { HoursFormat } from '../../schema/HoursFormat'
import type { PostalAddress } from '../../schema/PostalAddress'
import { openingHoursText } from '../../lib/openingHours'
import { ContactCardItem } from './ContactCardItem'

export type ContactCardListProps = {
  cards: ContactCards
  /** The email address, phone number and office from the site's settings. */
  contact: ContactDetails
  /** How the page's language writes the opening hours (`site.yaml`'s `dates.hours`). */
  hours: HoursFormat
  /** Id of the heading above the cards. */
  headingId: string
}

/**
 * The address as a letter to the office is addressed there (Estonia, and most of Europe): the
 * street, the postal code before the town, the country.
 */
function addressLines({ street, postal_code, locality, country }: PostalAddress): string[] {
  return [street, `${postal_code} ${locality}`, country]
}

const linkClass = 'rounded-sm font-semibold break-words text-brand-700 underline-offset-4 hover:text-brand-800 hover:underline'

/** The cards beside the contact form: general email, phone and the office address. */
export function ContactCardList({ cards, contact, hours, headingId }: ContactCardListProps) {
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5">
      <h2 id={headingId} className="text-subtitle text-ink-950">
        {cards.title}
      </h2>
      <ul role="list" className="flex flex-col gap-4">
        <ContactCardItem card={cards.email}>
          <a href={`mailto:${contact.email}`} className={linkClass}>
            {contact.email}
          </a>
        </ContactCardItem>
        {/* The card's description says when to call through `{hours}`: the stated opening hours. */}
        <ContactCardItem
          card={{ ...cards.phone, description: cards.phone.description.replace('{hours}', openingHoursText(contact.opening_hours, hours)) }}
        >
          <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`} className={linkClass}>
            {contact.phone}
          </a>
        </ContactCardItem>
        <ContactCardItem card={cards.office}>
          <address className="flex flex-col not-italic">
            <span className="font-semibold">{contact.office.name}</span>
            {addressLines(contact.office.address).map((line) => (
              <span key={line} className="text-ink-600">
                {line}
              </span>
            ))}
          </address>
        </ContactCardItem>
      </ul>
    </section>
  )
}
