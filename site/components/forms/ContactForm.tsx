import type { ContactForm as ContactFormContent } from '../../schema/ContactForm'
import type { Country } from '../../schema/Country'
import { contract } from '../../schema/contract'
import { AttachmentsField } from './AttachmentsField'
import { CountryCodeSelect } from './CountryCodeSelect'
import { FormField } from './FormField'
import { FormShell } from './FormShell'
import { FormStatus } from './FormStatus'
import { Honeypot } from './Honeypot'
import { SubmitButton } from './SubmitButton'
import { controlClasses } from './fieldStyles'
import { type Endpoint, fieldAttributes, formUrl } from './sendForm'
import { useFormSubmission } from './useFormSubmission'

export type ContactFormProps = {
  /** Every word of the form, from `content/forms.yaml`. */
  form: ContactFormContent
  /** Options of the dialling-code dropdown. */
  countries: Country[]
  /** The dialling code the dropdown starts on: the page's language's (`+372` in Estonian). */
  countryCode?: string | undefined
  /** The contact service, and the page's language. */
  endpoint: Endpoint
}

/** The form's path, field names and limits: the contract with the contact service. */
const { contact } = contract
const C = contact.fields
const ID = 'contact-form'

/**
 * The contact page's "Send us a Message" form. A real form posting to the contact service
 * (`multipart/form-data`, for its optional files), so it works without script (the service
 * redirects to a confirmation page); with script it sends JSON, or multipart with the upload's
 * progress when files are attached, stays on the page and answers with a toast.
 */
export function ContactForm({ form, countries, countryCode, endpoint }: ContactFormProps) {
  const { fields, messages } = form
  const { sending, errors, notice, progress, onSubmit, onChange } = useFormSubmission({
    endpoint,
    form: contact,
    messages,
    files: contract.attachments.name,
  })
  return (
    <FormShell
      id={ID}
      action={formUrl(endpoint, contact.path)}
      title={form.title}
      lead={form.lead}
      onSubmit={onSubmit}
      onChange={onChange}
      encType="multipart/form-data"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id={`${ID}-name`} label={fields.name.label} error={errors[C.name.name]}>
          {(control) => (
            <input {...control} {...fieldAttributes(C.name)} type="text" autoComplete="name"
              placeholder={fields.name.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-email`} label={fields.email.label} error={errors[C.email.name]}>
          {(control) => (
            <input {...control} {...fieldAttributes(C.email)} type="email" autoComplete="email"
              placeholder={fields.email.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-company`} label={fields.company.label} optional={messages.optional}
          error={errors[C.company.name]} className="sm:col-span-2">
          {(control) => (
            <input {...control} {...fieldAttributes(C.company)} type="text" autoComplete="organization"
              placeholder={fields.company.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <div className="grid grid-cols-[minmax(0,9rem)_minmax(0,1fr)] gap-3 sm:col-span-2 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]">
          <FormField id={`${ID}-country-code`} label={fields.country_code.label} error={errors[C.country_code.name]}>
            {(control) => <CountryCodeSelect {...control} name={C.country_code.name} countries={countries} initial={countryCode} />}
          </FormField>
          <FormField id={`${ID}-phone`} label={fields.phone.label} error={errors[C.phone.name]}>
            {(control) => (
              <input {...control} {...fieldAttributes(C.phone)} type="tel" autoComplete="tel-national"
                placeholder={fields.phone.placeholder ?? undefined} className={controlClasses()} />
            )}
          </FormField>
        </div>
        <FormField id={`${ID}-subject`} label={fields.subject.label} error={errors[C.subject.name]} className="sm:col-span-2">
          {(control) => (
            <input {...control} {...fieldAttributes(C.subject)} type="text"
              placeholder={fields.subject.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-message`} label={fields.message.label} error={errors[C.message.name]} className="sm:col-span-2">
          {(control) => (
            <textarea {...control} {...fieldAttributes(C.message)} rows={6}
              placeholder={fields.message.placeholder ?? undefined} className={controlClasses('resize-y')} />
          )}
        </FormField>
        <AttachmentsField id={`${ID}-attachments`} words={fields.attachments} messages={messages}
          error={errors[contract.attachments.name]} progress={progress} />
      </div>
      <Honeypot id={`${ID}-website`} label={messages.honeypot} />
      <FormStatus id={`${ID}-status`} message={notice} />
      <div>
        <SubmitButton messages={messages} sending={sending} />
      </div>
    </FormShell>
  )
}
