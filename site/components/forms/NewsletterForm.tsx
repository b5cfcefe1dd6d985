import Mail from 'lucide-react/icons/mail'
import { useState } from 'react'
import type { Consent } from '../../schema/Consent'
import type { FormMessages } from '../../schema/FormMessages'
import { contract } from '../../schema/contract'
import { Button } from '../ui/Button'
import { Honeypot } from './Honeypot'
import { type Endpoint, fieldAttributes, formUrl } from './sendForm'
import { useFormSubmission } from './useFormSubmission'

export type NewsletterFormProps = {
  /** Label and hint of the email box (`pages/insights.yaml`). */
  emailLabel: string
  emailPlaceholder: string
  /** What subscribers agree to, shown under the box (`forms.yaml`, `newsletter.consent`). */
  consent: Consent
  /** Button, notices and toasts (`forms.yaml`, `newsletter.messages`). */
  messages: FormMessages
  /** The contact service, and the page's language. */
  endpoint: Endpoint
  /** Id of the heading that names the form. */
  labelledBy: string
}

/** The form's path and field: the contract with the contact service. */
const { newsletter } = contract
const ID = 'newsletter-form'

/**
 * The Insights page's newsletter form. A real form posting to the contact service, so it works
 * without script (the service redirects to the "check your inbox" page); with script it sends
 * JSON, stays on the page and says what happened beside the button and in a toast. Either way
 * the service emails a link to confirm before anyone is subscribed.
 */
export function NewsletterForm({ emailLabel, emailPlaceholder, consent, messages, endpoint, labelledBy }: NewsletterFormProps) {
  const [sent, setSent] = useState(false)
  const { sending, errors, notice, onSubmit, onChange } = useFormSubmission({
    endpoint,
    form: newsletter,
    messages,
    onReset: () => setSent(true),
  })
  const field = newsletter.fields.email
  const error = errors[field.name]
  const inputId = `${ID}-email`
  const errorId = `${inputId}-error`
  const consentId = `${ID}-consent`
  const status = notice ?? (sent ? messages.success.description : null)
  return (
    <form
      method="post"
      action={formUrl(endpoint, newsletter.path)}
      aria-labelledby={labelledBy}
      onSubmit={(event) => {
        setSent(false)
        onSubmit(event)
      }}
      onChange={(event) => {
        setSent(false)
        onChange(event)
      }}
      className="relative flex flex-col gap-3"
    >
      <label htmlFor={inputId} className="text-sm font-semibold text-white">
        {emailLabel}
      </label>
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <Mail
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-ink-400"
          />
          <input
            id={inputId}
            {...fieldAttributes(field)}
            type="email"
            autoComplete="email"
            placeholder={emailPlaceholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${consentId}` : consentId}
            className="h-12 w-full rounded-full border border-white/20 bg-white pr-4 pl-12 text-base text-ink-900 placeholder:text-ink-500 focus:outline-2 focus:outline-offset-2 focus:outline-white aria-invalid:border-danger-700 aria-invalid:border-2"
          />
        </div>
        <Button type="submit" variant="inverse" size="lg" disabled={sending} aria-disabled={sending || undefined}>
          {sending ? messages.sending : messages.submit}
        </Button>
      </div>
      {error && (
        <p id={errorId} className="self-start rounded-md bg-white px-3 py-1.5 text-sm font-medium text-danger-700">
          {error}
        </p>
      )}
      <p id={consentId} className="text-sm text-brand-100">
        {consent.text}
      </p>
      <Honeypot id={`${ID}-website`} label={messages.honeypot} />
      <p
        id={`${ID}-status`}
        aria-live="polite"
        aria-atomic="true"
        data-state={notice ? 'invalid' : sent ? 'sent' : 'idle'}
        className="text-sm font-semibold text-white empty:hidden"
      >
        {status ?? ''}
      </p>
    </form>
  )
}
