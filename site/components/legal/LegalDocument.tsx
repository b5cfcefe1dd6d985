import type { LegalPage } from '../../schema/LegalPage'
import { Container } from '../ui/Container'
import { Hero } from '../ui/Hero'

export type LegalDocumentProps = {
  /** The page's words; its `meta` goes to the head, not here. */
  page: Omit<LegalPage, 'meta'>
}

const linkClass = 'rounded-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800'

/**
 * A legal text (Privacy Policy, Terms of Service): the hero with the date of the last change,
 * a table of contents and the sections in a readable column.
 */
export function LegalDocument({ page }: LegalDocumentProps) {
  return (
    <>
      <Hero hero={page.hero}>
        <p className="rounded-full bg-white/80 px-4 py-1.5 text-sm font-medium text-ink-700 ring-1 ring-ink-200 ring-inset">
          {page.updated}
        </p>
      </Hero>

      <div className="bg-white pb-20 sm:pb-24 lg:pb-28">
        <Container>
          <div className="mx-auto grid max-w-5xl gap-10 lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-16">
            <nav aria-labelledby="legal-contents" className="lg:sticky lg:top-28 lg:self-start">
              <p id="legal-contents" className="text-eyebrow text-ink-500 uppercase">
                {page.contents_label}
              </p>
              <ol className="mt-4 flex flex-col gap-1 border-l border-ink-200">
                {page.sections.map((section) => (
                  <li key={section.id}>
                    <a
                      href={`#${section.id}`}
                      className="-ml-px block border-l-2 border-transparent py-1.5 pl-4 text-sm text-ink-600 hover:border-brand-600 hover:text-ink-950"
                    >
                      {section.title}
                    </a>
                  </li>
                ))}
              </ol>
            </nav>

            <article className="flex max-w-prose flex-col gap-12">
              {page.sections.map((section) => (
                <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="flex flex-col gap-4">
                  <h2 id={`${section.id}-title`} className="text-2xl font-bold tracking-tight text-ink-950">
                    {section.title}
                  </h2>
                  {section.paragraphs.map((paragraph) => (
                    <p key={paragraph} className="text-pretty text-base leading-7 text-ink-700 sm:text-lg sm:leading-8">
                      {paragraph}
                    </p>
                  ))}
                  {section.list.length > 0 && (
                    <ul className="flex list-disc flex-col gap-2 pl-6 text-base leading-7 text-ink-700 marker:text-brand-600 sm:text-lg sm:leading-8">
                      {section.list.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                  )}
                  {section.links.length > 0 && (
                    <ul className="flex flex-col gap-2 text-base sm:text-lg">
                      {section.links.map((link) => (
                        <li key={link.href}>
                          <a href={link.href} className={linkClass}>
                            {link.label}
                          </a>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              ))}
            </article>
          </div>
        </Container>
      </div>
    </>
  )
}
