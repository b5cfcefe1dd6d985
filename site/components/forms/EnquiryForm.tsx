import type { EnquiryForm as EnquiryFormContent } from '../../schema/EnquiryForm'
import { Checkbox } from './Checkbox'
import { ChoiceSelect } from './ChoiceSelect'
import { FormField } from './FormField'
import { FormShell } from './FormShell'
import { FormStatus } from './FormStatus'
import { Honeypot } from './Honeypot'
import { SubmitButton } from './SubmitButton'
import { controlClasses } from './fieldStyles'
import { endpointUrl } from './sendForm'
import { useFormSubmission } from './useFormSubmission'

export type EnquiryFormProps = {
  /** Every word of the form, from `content/forms.yaml`. */
  form: EnquiryFormContent
  /** Base URL of the contact service (`settings.contact_endpoint`). */
  endpoint: string
}

/** The service's path for this form; the field names below are the keys it reads. */
const PATH = 'send-enquiry'
const ID = 'enquiry'

/** The body the service receives: the enquiry's fields, the consents as booleans. */
function toBody(data: FormData) {
  const text = (name: string) => String(data.get(name) ?? '')
  return {
    firstName: text('firstName'),
    lastName: text('lastName'),
    email: text('email'),
    jobTitle: text('jobTitle'),
    company: text('company'),
    phone: text('phone'),
    topic: text('topic'),
    source: text('source'),
    role: text('role'),
    newsletter: data.has('newsletter'),
    privacy: data.has('privacy'),
  }
}

/**
 * The home page's "Get in Touch" form. A real form posting to the contact service, so it
 * works without script; with script it sends JSON and answers with a toast.
 */
export function EnquiryForm({ form, endpoint }: EnquiryFormProps) {
  const { fields, messages } = form
  const { sending, errors, notice, onSubmit, onChange } = useFormSubmission({
    endpoint,
    path: PATH,
    messages,
    toBody,
  })
  const phoneHintId = `${ID}-phone-prefix`
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
        <FormField id={`${ID}-first-name`} label={fields.first_name.label} error={errors.firstName}>
          {(control) => (
            <input {...control} name="firstName" type="text" required autoComplete="given-name" maxLength={100}
              placeholder={fields.first_name.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-last-name`} label={fields.last_name.label} error={errors.lastName}>
          {(control) => (
            <input {...control} name="lastName" type="text" required autoComplete="family-name" maxLength={100}
              placeholder={fields.last_name.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-email`} label={fields.email.label} error={errors.email}>
          {(control) => (
            <input {...control} name="email" type="email" required autoComplete="email" maxLength={254}
              placeholder={fields.email.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-job-title`} label={fields.job_title.label} optional={messages.optional} error={errors.jobTitle}>
          {(control) => (
            <input {...control} name="jobTitle" type="text" autoComplete="organization-title" maxLength={200}
              placeholder={fields.job_title.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-company`} label={fields.company.label} error={errors.company}>
          {(control) => (
            <input {...control} name="company" type="text" required autoComplete="organization" maxLength={200}
              placeholder={fields.company.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-phone`} label={fields.phone.label} optional={messages.optional} error={errors.phone}>
          {(control) => (
            <div className="flex">
              <span
                id={phoneHintId}
                className="inline-flex items-center rounded-l-lg border border-r-0 border-ink-300 bg-ink-50 px-3 text-base text-ink-700"
              >
                {fields.phone.prefix}
              </span>
              <input {...control} name="phone" type="tel" autoComplete="tel-national" maxLength={32}
                aria-describedby={[phoneHintId, control['aria-describedby']].filter(Boolean).join(' ')}
                placeholder={fields.phone.placeholder ?? undefined} className={controlClasses('rounded-l-none')} />
            </div>
          )}
        </FormField>
        <FormField id={`${ID}-topic`} label={fields.topic.label} error={errors.topic} className="sm:col-span-2">
          {(control) => (
            <textarea {...control} name="topic" required rows={3} maxLength={10000}
              placeholder={fields.topic.placeholder ?? undefined} className={controlClasses('resize-y')} />
          )}
        </FormField>
        <FormField id={`${ID}-source`} label={fields.source.label} error={errors.source}>
          {(control) => <ChoiceSelect {...control} name="source" field={fields.source} />}
        </FormField>
        <FormField id={`${ID}-role`} label={fields.role.label} error={errors.role}>
          {(control) => <ChoiceSelect {...control} name="role" field={fields.role} />}
        </FormField>
      </div>
      <div className="flex flex-col gap-3">
        {/* The ids are the ones the specification names. */}
        <Checkbox id="newsletter" name="newsletter" field={fields.newsletter} error={errors.newsletter} />
        <Checkbox id="privacy" name="privacy" field={fields.privacy} error={errors.privacy} />
      </div>
      <Honeypot id={`${ID}-website`} label={messages.honeypot} />
      <FormStatus id={`${ID}-status`} message={notice} />
      <div>
        <SubmitButton messages={messages} sending={sending} />
      </div>
    </FormShell>
  )
}
