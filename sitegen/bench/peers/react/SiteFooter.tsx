import { useId } from 'react'
import { BrandLink } from './BrandLink'
import type { Site } from './model'

// The brand marks' paths, as in site/components/icons/brandMarks.ts (they are not part of lucide).
const MARKS: Record<string, string> = {
  github:
    'M12 .297c-6.63 0-12 5.373-12 12 0 5.303 3.438 9.8 8.205 11.385.6.113.82-.258.82-.577 0-.285-.01-1.04-.015-2.04-3.338.724-4.042-1.61-4.042-1.61C4.422 18.07 3.633 17.7 3.633 17.7c-1.087-.744.084-.729.084-.729 1.205.084 1.838 1.236 1.838 1.236 1.07 1.835 2.809 1.305 3.495.998.108-.776.417-1.305.76-1.605-2.665-.3-5.466-1.332-5.466-5.93 0-1.31.465-2.38 1.235-3.22-.135-.303-.54-1.523.105-3.176 0 0 1.005-.322 3.3 1.23.96-.267 1.98-.399 3-.405 1.02.006 2.04.138 3 .405 2.28-1.552 3.285-1.23 3.285-1.23.645 1.653.24 2.873.12 3.176.765.84 1.23 1.91 1.23 3.22 0 4.61-2.805 5.625-5.475 5.92.42.36.81 1.096.81 2.22 0 1.606-.015 2.896-.015 3.286 0 .315.21.69.825.57C20.565 22.092 24 17.592 24 12.297c0-6.627-5.373-12-12-12',
  linkedin:
    'M20.447 20.452h-3.554v-5.569c0-1.328-.027-3.037-1.852-3.037-1.853 0-2.136 1.445-2.136 2.939v5.667H9.351V9h3.414v1.561h.046c.477-.9 1.637-1.85 3.37-1.85 3.601 0 4.267 2.37 4.267 5.455v6.286zM5.337 7.433a2.062 2.062 0 0 1-2.063-2.065 2.064 2.064 0 1 1 2.063 2.065zm1.782 13.019H3.555V9h3.564v11.452zM22.225 0H1.771C.792 0 0 .774 0 1.729v20.542C0 23.227.792 24 1.771 24h20.451C23.2 24 24 23.227 24 22.271V1.729C24 .774 23.2 0 22.222 0h.003z',
  twitter:
    'M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z',
}

/** The footer (site/components/layout/SiteFooter.tsx): brand, description, social marks, link columns, copyright. */
export function SiteFooter({ site }: { site: Site }) {
  const socialId = useId()
  return (
    <footer className="relative overflow-hidden bg-ink-950 text-ink-300">
      <div aria-hidden="true" className="pointer-events-none absolute -top-40 left-1/2 h-80 w-[48rem] -translate-x-1/2 rounded-full bg-brand-600/20 blur-3xl" />
      <div className="relative mx-auto w-full max-w-page px-5 pt-16 pb-10 sm:px-6 lg:px-8 lg:pt-20">
        <div className="grid gap-12 lg:grid-cols-12">
          <div className="flex flex-col gap-6 lg:col-span-4">
            <BrandLink name={site.name} label={site.home_label} tone="light" />
            <p className="max-w-sm text-sm leading-relaxed text-ink-400">{site.description}</p>
            <div className="flex flex-col gap-3">
              <p id={socialId} className="text-sm font-semibold text-white">
                {site.social_label}
              </p>
              <ul aria-labelledby={socialId} className="flex gap-2.5">
                {site.social.map((social) => (
                  <li key={social.name}>
                    <span
                      role="img"
                      aria-label={social.name}
                      title={social.name}
                      className="flex size-10 items-center justify-center rounded-full bg-white/5 text-ink-300 ring-1 ring-white/10"
                    >
                      <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false" className="size-4">
                        <path d={MARKS[social.icon]} />
                      </svg>
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
          <nav aria-label={site.ui.footer_nav_label} className="grid grid-cols-2 gap-10 sm:grid-cols-3 lg:col-span-7 lg:col-start-6">
            {site.footer.map((column) => (
              <div key={column.title}>
                <h2 className="text-sm font-semibold text-white">{column.title}</h2>
                <ul className="mt-4 flex flex-col gap-3">
                  {column.links.map((link) => (
                    <li key={link.href}>
                      <a href={link.href} className="text-sm text-ink-400 transition-colors hover:text-white">
                        {link.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </div>
        <div className="mt-14 border-t border-white/10 pt-8">
          <p className="text-sm text-ink-400">{site.copyright}</p>
        </div>
      </div>
    </footer>
  )
}
