import ArrowRight from 'lucide-react/icons/arrow-right'
import { useData } from 'vike-react/useData'
import { ActionLink } from '../../components/ui/ActionLink'
import { Container } from '../../components/ui/Container'
import { enhance } from '../../enhance/modules'
import type { Data } from './+data'

// The not-found page (prerendered to 404.html, which the CDN serves for any unknown path).
// A static site has no other runtime errors to report, so it always shows the not-found copy.
export default function Page() {
  const { page: notFound } = useData<Data>()

  return (
    // The served URL is the missing one, which the prerender does not know: the browser logs it.
    <section {...enhance('log-missing-page')} aria-labelledby="not-found-title" className="relative isolate overflow-hidden bg-hero">
      <div aria-hidden="true" className="bg-grid absolute inset-0 -z-10" />
      {/* Soft rings behind the code, like a signal that found nothing. */}
      <div aria-hidden="true" className="absolute top-1/3 left-1/2 -z-10 -translate-1/2">
        {['size-[44rem]', 'size-[32rem]', 'size-[20rem]'].map((size) => (
          <span key={size} className={`absolute top-1/2 left-1/2 ${size} -translate-1/2 rounded-full border border-brand-200/60`} />
        ))}
      </div>
      <Container className="flex min-h-[calc(100dvh-var(--spacing-header)-4rem)] flex-col items-center justify-center gap-6 py-24 text-center">
        <p className="text-accent-gradient text-[clamp(6rem,4rem+10vw,11rem)] leading-none font-bold tracking-tighter">
          {notFound.code}
        </p>
        <h1 id="not-found-title" className="text-title text-balance text-ink-950">
          {notFound.title}
        </h1>
        <p className="max-w-xl text-pretty text-lead text-ink-600">{notFound.lead}</p>
        <ActionLink href={notFound.home_link.href} size="lg" className="mt-2">
          {notFound.home_link.label}
        </ActionLink>

        {notFound.suggestions.length > 0 && (
          <nav aria-labelledby="not-found-suggestions" className="mt-10 flex w-full max-w-2xl flex-col items-center gap-4 border-t border-ink-200 pt-8">
            <p id="not-found-suggestions" className="text-sm font-medium text-ink-500">
              {notFound.suggestions_title}
            </p>
            <ul role="list" className="flex flex-wrap justify-center gap-3">
              {notFound.suggestions.map((link) => (
                <li key={link.href}>
                  <a
                    href={link.href}
                    className="group inline-flex items-center gap-1.5 rounded-full bg-white px-4 py-2 text-sm font-semibold text-ink-800 shadow-xs ring-1 ring-ink-200 ring-inset transition-colors hover:text-brand-700 hover:ring-brand-300"
                  >
                    {link.label}
                    <ArrowRight aria-hidden="true" className="size-3.5 text-ink-400 transition-transform group-hover:translate-x-0.5 group-hover:text-brand-600" />
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </Container>
    </section>
  )
}
