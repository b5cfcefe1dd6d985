import { Mail } from 'lucide-react'
import { useId } from 'react'
import type { NewsletterSection } from '../../schema/NewsletterSection'
import { Button } from '../ui/Button'
import { Eyebrow } from '../ui/Eyebrow'

export type NewsletterSignupProps = {
  newsletter: NewsletterSection
  /** Id of the block's h2, to name the section. */
  headingId: string
}

/**
 * The newsletter block: a heading, the promise, an email box and the Subscribe Now button.
 * Signing up is not offered yet, so there is no form to submit and the button does nothing.
 */
export function NewsletterSignup({ newsletter, headingId }: NewsletterSignupProps) {
  const inputId = useId()
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
        <div className="flex flex-col gap-3">
          <label htmlFor={inputId} className="text-sm font-semibold text-white">
            {newsletter.email_label}
          </label>
          <div className="flex flex-col gap-3 sm:flex-row">
            <div className="relative flex-1">
              <Mail
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-ink-400"
              />
              <input
                id={inputId}
                type="email"
                name="email"
                autoComplete="email"
                placeholder={newsletter.email_placeholder}
                className="h-12 w-full rounded-full border border-white/20 bg-white pr-4 pl-12 text-base text-ink-900 placeholder:text-ink-500 focus:outline-2 focus:outline-offset-2 focus:outline-white"
              />
            </div>
            <Button variant="inverse" size="lg">
              {newsletter.submit_label}
            </Button>
          </div>
          <p className="text-sm text-brand-100">{newsletter.note}</p>
        </div>
      </div>
    </div>
  )
}
