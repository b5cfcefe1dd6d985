import ArrowRight from 'lucide-react/icons/arrow-right'
import Calendar from 'lucide-react/icons/calendar'
import Clock from 'lucide-react/icons/clock'
import { useId } from 'react'
import { buttonClasses } from '../ui/buttonStyles'
import type { ArticleCardData } from '../insights/articleCard'

export type BlogArticleCardProps = {
  article: ArticleCardData
  /** The button's text (`Read More`); its accessible name adds the article's title. */
  readMore: string
}

/**
 * An article of the blog list. Read More links to the article, named after it so each link is
 * distinct for assistive technology.
 */
export function BlogArticleCard({ article, readMore }: BlogArticleCardProps) {
  const id = useId()
  const titleId = `${id}-title`
  const buttonTextId = `${id}-more`
  return (
    <article className="relative flex h-full flex-col gap-5 overflow-hidden rounded-panel border border-ink-200/80 bg-white p-6 shadow-card transition-[box-shadow,border-color] duration-200 hover:border-brand-200 hover:shadow-elevated sm:p-8">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 h-1 bg-linear-to-r from-brand-700 via-brand-500 to-brand-300" />
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <p className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-800 ring-1 ring-brand-100 ring-inset">
          {article.category}
        </p>
        <p className="inline-flex items-center gap-1.5 text-ink-500">
          <Clock aria-hidden="true" className="size-4" />
          {article.read_time}
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <h3 id={titleId} className="text-subtitle text-balance text-ink-950">
          {article.title}
        </h3>
        <p className="inline-flex items-center gap-1.5 text-sm text-ink-500">
          <Calendar aria-hidden="true" className="size-4" />
          <time dateTime={article.iso_date}>{article.date}</time>
        </p>
      </div>
      <p className="text-pretty text-ink-600">{article.excerpt}</p>
      <div className="mt-auto pt-2">
        <a
          href={article.href}
          className={buttonClasses('secondary', 'md')}
          aria-labelledby={`${buttonTextId} ${titleId}`}
        >
          <span id={buttonTextId}>{readMore}</span>
          <ArrowRight aria-hidden="true" />
        </a>
      </div>
    </article>
  )
}
