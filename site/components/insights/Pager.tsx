import ArrowLeft from 'lucide-react/icons/arrow-left'
import ArrowRight from 'lucide-react/icons/arrow-right'
import { buttonClasses } from '../ui/buttonStyles'

export type PagerProps = {
  /** Where the visitor is (`Page 2 of 5`), also the navigation's name. */
  label: string
  /** The page of newer articles, if any. */
  previous: string | null
  /** The page of older articles, if any. */
  next: string | null
  previousLabel: string
  nextLabel: string
}

/** The links between the pages of a long list of articles: plain links, no script. */
export function Pager({ label, previous, next, previousLabel, nextLabel }: PagerProps) {
  return (
    <nav aria-label={label} className="mt-12 flex flex-wrap items-center justify-between gap-4">
      {previous ? (
        <a href={previous} rel="prev" className={buttonClasses('secondary', 'md')}>
          <ArrowLeft aria-hidden="true" />
          {previousLabel}
        </a>
      ) : (
        <span />
      )}
      {/* Above both links on a phone, between them from the small breakpoint. */}
      <p className="order-first w-full text-center text-sm font-semibold text-ink-700 sm:order-none sm:w-auto">
        {label}
      </p>
      {next ? (
        <a href={next} rel="next" className={buttonClasses('secondary', 'md')}>
          {nextLabel}
          <ArrowRight aria-hidden="true" />
        </a>
      ) : (
        <span />
      )}
    </nav>
  )
}
