import type { CallToAction } from '../../schema/CallToAction'
import { ActionGroup } from './ActionGroup'
import { Container } from './Container'

export type CtaBandProps = {
  /** Heading, lead and buttons, from content. */
  cta: CallToAction
  /** Anchor id of the band (e.g. `join-our-mission`), so links can lead to it. */
  id?: string
  /** Id of the band's h2; the band is a region named by it. Defaults to `<id>-title` or `cta-title`. */
  headingId?: string
}

/** The closing call to action of a page: a brand-coloured panel with an h2, a sentence and buttons. */
export function CtaBand({ cta, id, headingId = id ? `${id}-title` : 'cta-title' }: CtaBandProps) {
  return (
    <section id={id} aria-labelledby={headingId} className="bg-white py-16 sm:py-20 lg:py-24">
      <Container>
        <div className="relative isolate overflow-hidden rounded-panel bg-brand-800 px-6 py-14 text-center shadow-elevated sm:px-12 sm:py-20">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_22rem_at_15%_-10%,rgb(99_102_241/0.9),transparent_70%),radial-gradient(36rem_20rem_at_100%_110%,rgb(30_27_75/0.85),transparent_70%)]"
          />
          <div aria-hidden="true" className="bg-grid absolute inset-0 -z-10 opacity-40 invert" />
          <div className="mx-auto flex max-w-2xl flex-col items-center gap-5">
            <h2 id={headingId} className="text-title text-balance text-white">
              {cta.title}
            </h2>
            <p className="text-pretty text-lead text-brand-100">{cta.lead}</p>
            <ActionGroup actions={cta.actions} on="dark" align="center" className="pt-3" />
          </div>
        </div>
      </Container>
    </section>
  )
}
