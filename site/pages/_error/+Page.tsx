import { useEffect } from 'react'
import { ActionLink } from '../../components/ui/ActionLink'
import { Container } from '../../components/ui/Container'
import { settings } from '../../lib/settings'

// The not-found page (prerendered to 404.html, which the CDN serves for any unknown path).
// A static site has no other runtime errors to report, so it always shows the not-found copy.
export default function Page() {
  const notFound = settings.not_found

  useEffect(() => {
    // The served URL is the missing one; the prerendered page context does not know it.
    console.error('404 Error: User attempted to access non-existent route:', window.location.pathname)
  }, [])

  return (
    <section aria-labelledby="not-found-title" className="relative isolate overflow-hidden bg-hero">
      <div aria-hidden="true" className="bg-grid absolute inset-0 -z-10" />
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
      </Container>
    </section>
  )
}
