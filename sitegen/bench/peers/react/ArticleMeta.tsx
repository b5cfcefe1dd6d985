import Calendar from 'lucide-react/icons/calendar'
import Clock from 'lucide-react/icons/clock'
import { displayDate, isoDate, readTime } from './model'

/** Date and reading time (site/components/insights/ArticleMeta.tsx). */
export function ArticleMeta({ date, words, suffix, className }: { date: Date; words: number; suffix: string; className?: string }) {
  return (
    <p className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-ink-500${className ? ` ${className}` : ''}`}>
      <span className="inline-flex items-center gap-1.5">
        <Calendar aria-hidden="true" className="size-4" />
        <time dateTime={isoDate(date)}>{displayDate(date)}</time>
      </span>
      <span className="inline-flex items-center gap-1.5">
        <Clock aria-hidden="true" className="size-4" />
        {`${readTime(words)} ${suffix}`}
      </span>
    </p>
  )
}
