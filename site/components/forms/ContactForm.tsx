import type { ContactForm as ContactFormContent } from '../../schema/ContactForm'
import type { Country } from '../../schema/Country'
import { CountryCodeSelect } from './CountryCodeSelect'
import { FormField } from './FormField'
import { FormShell } from './FormShell'
import { FormStatus } from './FormStatus'
import { Honeypot } from './Honeypot'
import { SubmitButton } from './SubmitButton'
import { controlClasses } from './fieldStyles'
import { endpointUrl } from './sendForm'
import { useFormSubmission } from './useFormSubmission'

export type ContactFormProps = {
  /** Every word of the form, from `content/forms.yaml`. */
  form: ContactFormContent
  /** Options of the dialling-code dropdown. */
  countries: Country[]
  /** Base URL of the contact service (`settings.contact_endpoint`). */
  endpoint: string
}

/** The service's path for this form; the field names below are the keys it reads. */
const PATH = 'send-contact-email'
const ID = 'contact-form'

/** The body the service receives: exactly the contact message's fields. */
function toBody(data: FormData) {
  const text = (name: string) => String(data.get(name) ?? '')
  return {
    name: text('name'),
    email: text('email'),
    company: text('company'),
    countryCode: text('countryCode'),
    phone: text('phone'),
    subject: text('subject'),
    message: text('message'),
  }
}

/**
 * The contact page's "Send us a Message" form. A real form posting to the contact service, so
 * it works without script (the service redirects to a confirmation page); with script it sends
 * JSON, stays on the page and answers with a toast.
 */
export function ContactForm({ form, countries, endpoint }: ContactFormProps) {
  const { fields, messages } = form
  const { sending, errors, notice, onSubmit, onChange } = useFormSubmission({
    endpoint,
    path: PATH,
    messages,
    toBody,
  })
  return (
    <FormShell
      id={ID}
      action={endpointUrl(endpoint, PATH)}
      title={form.title}
      lead={form.lead}
      onSubmit={onSubmit}
      onChange={onChange}
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id={`${ID}-name`} label={fields.name.label} error={errors.name}>
          {(control) => (
            <input {...control} name="name" type="text" required autoComplete="name" maxLength={200}
              placeholder={fields.name.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-email`} label={fields.email.label} error={errors.email}>
          {(control) => (
            <input {...control} name="email" type="email" required autoComplete="email" maxLength={254}
              placeholder={fields.email.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-company`} label={fields.company.label} optional={messages.optional}
          error={errors.company} className="sm:col-span-2">
          {(control) => (
            <input {...control} name="company" type="text" autoComplete="organization" maxLength={200}
              placeholder={fields.company.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <div className="grid grid-cols-[minmax(0,9rem)_minmax(0,1fr)] gap-3 sm:col-span-2 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]">
          <FormField id={`${ID}-country-code`} label={fields.country_code.label} error={errors.countryCode}>
            {(control) => <CountryCodeSelect {...control} name="countryCode" countries={countries} />}
          </FormField>
          <FormField id={`${ID}-phone`} label={fields.phone.label} error={errors.phone}>
            {(control) => (
              <input {...control} name="phone" type="tel" required autoComplete="tel-national" maxLength={32}
                placeholder={fields.phone.placeholder ?? undefined} className={controlClasses()} />
            )}
          </FormField>
        </div>
        <FormField id={`${ID}-subject`} label={fields.subject.label} error={errors.subject} className="sm:col-span-2">
          {(control) => (
            <input {...control} name="subject" type="text" required maxLength={200}
              placeholder={fields.subject.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-message`} label={fields.message.label} error={errors.message} className="sm:col-span-2">
          {(control) => (
            <textarea {...control} name="message" required rows={6} maxLength={10000}
              placeholder={fields.message.placeholder ?? undefined} className={controlClasses('resize-y')} />
          )}
        </FormField>
      </div>
      <Honeypot id={`${ID}-website`} label={messages.honeypot} />
      <FormStatus id={`${ID}-status`} message={notice} />
      <div>
        <SubmitButton messages={messages} sending={sending} />
      </div>
    </FormShell>
  )
}
