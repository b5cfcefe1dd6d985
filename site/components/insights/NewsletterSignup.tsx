import type { Consent } from '../../schema/Consent'
import type { FormMessages } from '../../schema/FormMessages'
import type { NewsletterSection } from '../../schema/NewsletterSection'
import { Island } from '../../islands/Island'
import { Eyebrow } from '../ui/Eyebrow'
import type { Endpoint } from '../forms/sendForm'

export type NewsletterSignupProps = {
  newsletter: NewsletterSection
  /** The newsletter form's consent and messages (`forms.yaml`). */
  form: { consent: Consent; messages: FormMessages }
  /** Base URL of the contact service. */
  endpoint: Endpoint
  /** Id of the block's h2, to name the section and its form. */
  headingId: string
}

/**
 * The newsletter block: a heading, the promise, and the sign-up form (a React island that
 * works as a plain form post until the visitor reaches for it).
 */
export function NewsletterSignup({ newsletter, form, endpoint, headingId }: NewsletterSignupProps) {
  const { intro } = newsletter
  return (
    <div className="relative isolate overflow-hidden rounded-panel bg-brand-800 px-6 py-12 shadow-elevated sm:px-12 sm:py-16">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(36rem_18rem_at_100%_0%,rgb(129_140_248/0.45),transparent_70%),radial-gradient(30rem_16rem_at_0%_100%,rgb(30_27_75/0.7),transparent_70%)]"
      />
      <div className="grid items-center gap-10 lg:grid-cols-[1.1fr_1fr] lg:gap-16">
        <div className="flex flex-col gap-4">
          {intro.eyebrow && <Eyebrow on="dark">{intro.eyebrow}</Eyebrow>}
          <h2 id={headingId} className="text-title text-balance text-white">
            {intro.title}
          </h2>
          {intro.lead && <p className="text-pretty text-lead text-brand-100">{intro.lead}</p>}
        </div>
        <Island
          name="newsletter-form"
          hydrate="interaction"
          props={{
            emailLabel: newsletter.email_label,
            emailPlaceholder: newsletter.email_placeholder,
            consent: form.consent,
            messages: form.messages,
            endpoint,
            labelledBy: headingId,
          }}
        />
      </div>
    </div>
  )
}
