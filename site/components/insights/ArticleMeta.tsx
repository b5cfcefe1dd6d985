import Calendar from 'lucide-react/icons/calendar'
import Clock from 'lucide-react/icons/clock'
import { cx } from '../../lib/cx'

export type ArticleMetaProps = {
  /** Publication date as displayed. */
  date: string
  /** The ISO date, for `<time datetime>`. */
  isoDate: string
  /** Reading time as displayed (`8 min read`). */
  readTime: string
  className?: string
}

/** An article's publication date and reading time, each with its icon. */
export function ArticleMeta({ date, isoDate, readTime, className }: ArticleMetaProps) {
  return (
    <p className={cx('flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-ink-500', className)}>
      <span className="inline-flex items-center gap-1.5">
        <Calendar aria-hidden="true" className="size-4" />
        <time dateTime={isoDate}>{date}</time>
      </span>
      <span className="inline-flex items-center gap-1.5">
        <Clock aria-hidden="true" className="size-4" />
        {readTime}
      </span>
    </p>
  )
}
