import type { EnquiryForm as EnquiryFormContent } from '../../schema/EnquiryForm'
import type { EnquirySection as EnquiryContent } from '../../schema/EnquirySection'
import { ContentIcon } from '../icons/ContentIcon'
import { Island } from '../../islands/Island'
import { Eyebrow } from '../ui/Eyebrow'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import type { Endpoint } from '../forms/sendForm'

export type EnquirySectionProps = {
  section: EnquiryContent
  /** The form's words, from `content/forms.yaml`; its heading names the section. */
  form: EnquiryFormContent
  /** The dialling code before the form's phone field: the language's, from `site.yaml`. */
  phonePrefix: string | null
  /** Base URL of the contact service. */
  endpoint: Endpoint
}

/** Get in Touch: what to expect beside the enquiry form. */
export function EnquirySection({ section, form, phonePrefix, endpoint }: EnquirySectionProps) {
  return (
    <Section tone="muted" labelledBy="enquiry-title">
      <div className="grid gap-12 lg:grid-cols-[0.85fr_1.15fr] lg:gap-16">
        <Reveal className="flex flex-col gap-6 lg:pt-8">
          {section.eyebrow && <Eyebrow>{section.eyebrow}</Eyebrow>}
          <p className="text-xl font-semibold tracking-tight text-balance text-ink-950 sm:text-2xl lg:text-3xl">{section.lead}</p>
          <ul role="list" className="mt-4 flex flex-col gap-6">
            {section.points.map((point) => (
              <li key={point.title} className="flex gap-4">
                <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-white text-brand-700 shadow-xs ring-1 ring-ink-200">
                  <ContentIcon icon={point.icon} className="size-5" />
                </span>
                <p className="flex flex-col gap-1">
                  <strong className="font-semibold text-ink-900">{point.title}</strong>
                  <span className="text-ink-600">{point.description}</span>
                </p>
              </li>
            ))}
          </ul>
        </Reveal>
        <Reveal className="rounded-panel border border-ink-200/80 bg-white p-6 shadow-elevated sm:p-10">
          <Island name="enquiry-form" hydrate="interaction" props={{ form, phonePrefix, endpoint }} />
        </Reveal>
      </div>
    </Section>
  )
}
