import type { EnquiryForm as EnquiryFormContent } from '../../schema/EnquiryForm'
import { contract } from '../../schema/contract'
import { Checkbox } from './Checkbox'
import { ChoiceSelect } from './ChoiceSelect'
import { FormField } from './FormField'
import { FormShell } from './FormShell'
import { FormStatus } from './FormStatus'
import { Honeypot } from './Honeypot'
import { SubmitButton } from './SubmitButton'
import { controlClasses } from './fieldStyles'
import { type Endpoint, fieldAttributes, formUrl } from './sendForm'
import { useFormSubmission } from './useFormSubmission'

export type EnquiryFormProps = {
  /** Every word of the form, from `content/forms.yaml`. */
  form: EnquiryFormContent
  /** The dialling code shown before the phone field: the language's (`site.yaml`); none without one. */
  phonePrefix: string | null
  /** The contact service, and the page's language. */
  endpoint: Endpoint
}

/** The form's path, field names, limits and options: the contract with the contact service. */
const { enquiry } = contract
const C = enquiry.fields
const ID = 'enquiry'

/**
 * The home page's "Get in Touch" form. A real form posting to the contact service, so it
 * works without script; with script it sends JSON and answers with a toast.
 */
export function EnquiryForm({ form, phonePrefix, endpoint }: EnquiryFormProps) {
  const { fields, messages } = form
  const { sending, errors, notice, onSubmit, onChange } = useFormSubmission({
    endpoint,
    form: enquiry,
    messages,
  })
  const phoneHintId = `${ID}-phone-prefix`
  return (
    <FormShell
      id={ID}
      action={formUrl(endpoint, enquiry.path)}
      title={form.title}
      lead={form.lead}
      onSubmit={onSubmit}
      onChange={onChange}
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id={`${ID}-first-name`} label={fields.first_name.label} error={errors[C.first_name.name]}>
          {(control) => (
            <input {...control} {...fieldAttributes(C.first_name)} type="text" autoComplete="given-name"
              placeholder={fields.first_name.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-last-name`} label={fields.last_name.label} error={errors[C.last_name.name]}>
          {(control) => (
            <input {...control} {...fieldAttributes(C.last_name)} type="text" autoComplete="family-name"
              placeholder={fields.last_name.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-email`} label={fields.email.label} error={errors[C.email.name]}>
          {(control) => (
            <input {...control} {...fieldAttributes(C.email)} type="email" autoComplete="email"
              placeholder={fields.email.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-job-title`} label={fields.job_title.label} optional={messages.optional} error={errors[C.job_title.name]}>
          {(control) => (
            <input {...control} {...fieldAttributes(C.job_title)} type="text" autoComplete="organization-title"
              placeholder={fields.job_title.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-company`} label={fields.company.label} error={errors[C.company.name]}>
          {(control) => (
            <input {...control} {...fieldAttributes(C.company)} type="text" autoComplete="organization"
              placeholder={fields.company.placeholder ?? undefined} className={controlClasses()} />
          )}
        </FormField>
        <FormField id={`${ID}-phone`} label={fields.phone.label} optional={messages.optional} error={errors[C.phone.name]}>
          {(control) => (
            <div className="flex">
              {phonePrefix !== null && (
                <span
                  id={phoneHintId}
                  className="inline-flex items-center rounded-l-lg border border-r-0 border-ink-300 bg-ink-50 px-3 text-base text-ink-700"
                >
                  {phonePrefix}
                </span>
              )}
              <input {...control} {...fieldAttributes(C.phone)} type="tel" autoComplete="tel-national"
                aria-describedby={[phonePrefix !== null && phoneHintId, control['aria-describedby']].filter(Boolean).join(' ')}
                placeholder={fields.phone.placeholder ?? undefined}
                className={controlClasses(phonePrefix !== null ? 'rounded-l-none' : undefined)} />
            </div>
          )}
        </FormField>
        <FormField id={`${ID}-topic`} label={fields.topic.label} error={errors[C.topic.name]} className="sm:col-span-2">
          {(control) => (
            <textarea {...control} {...fieldAttributes(C.topic)} rows={3}
              placeholder={fields.topic.placeholder ?? undefined} className={controlClasses('resize-y')} />
          )}
        </FormField>
        <FormField id={`${ID}-source`} label={fields.source.label} error={errors[C.source.name]}>
          {(control) => <ChoiceSelect {...control} name={C.source.name} values={C.source.options} field={fields.source} />}
        </FormField>
        <FormField id={`${ID}-role`} label={fields.role.label} error={errors[C.role.name]}>
          {(control) => <ChoiceSelect {...control} name={C.role.name} values={C.role.options} field={fields.role} />}
        </FormField>
      </div>
      <div className="flex flex-col gap-3">
        {/* The ids are the ones the specification names. */}
        <Checkbox id="newsletter" name={C.newsletter.name} field={fields.newsletter} error={errors[C.newsletter.name]} />
        <Checkbox id="privacy" name={C.privacy.name} field={fields.privacy} error={errors[C.privacy.name]} />
      </div>
      <Honeypot id={`${ID}-website`} label={messages.honeypot} />
      <FormStatus id={`${ID}-status`} message={notice} />
      <div>
        <SubmitButton messages={messages} sending={sending} />
      </div>
    </FormShell>
  )
}
