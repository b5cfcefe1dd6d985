import type { ArticleType } from '../../schema/ArticleType'
import { cx } from '../../lib/cx'
import { ArticleImage } from './ArticleImage'
import { ArticleMeta } from './ArticleMeta'
import type { ArticleCardData } from './articleCard'
import { Card } from '../ui/Card'

export type LatestArticleCardProps = {
  article: ArticleCardData
  /** The badge text of the article's type. */
  typeLabel: string
}

// Each kind of piece gets its own badge colour, so the grid can be scanned by type.
const typeStyles: Record<ArticleType, string> = {
  article: 'bg-brand-50 text-brand-800 ring-brand-100',
  'case-study': 'bg-success-50 text-success-700 ring-success-700/20',
  technical: 'bg-ink-100 text-ink-800 ring-ink-200',
  whitepaper: 'bg-warning-400/15 text-ink-900 ring-warning-500/30',
}

/** An article in the latest grid: illustration, type badge, category, title, excerpt, author and dates. */
export function LatestArticleCard({ article, typeLabel }: LatestArticleCardProps) {
  return (
    <Card
      as="article"
      padding="none"
      className="h-full overflow-hidden transition-[box-shadow,transform] duration-200 hover:-translate-y-0.5 hover:shadow-elevated"
    >
      <ArticleImage src={article.image} alt={article.image_alt} />
      <div className="flex flex-1 flex-col gap-4 p-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <span className={cx('rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', typeStyles[article.type])}>
            {typeLabel}
          </span>
          <span className="text-sm font-medium text-brand-700">{article.category}</span>
        </div>
        <h3 className="text-lg leading-snug font-semibold tracking-tight text-balance text-ink-950">
          <a href={article.href} className="rounded-sm hover:text-brand-700 hover:underline">
            {article.title}
          </a>
        </h3>
        <p className="text-pretty text-sm leading-relaxed text-ink-600">{article.excerpt}</p>
        <footer className="mt-auto flex flex-col gap-3 border-t border-ink-100 pt-4">
          <p className="text-sm">
            <span className="font-semibold text-ink-900">{article.author}</span>
            <span aria-hidden="true" className="mx-2 inline-block size-1 rounded-full bg-ink-300 align-middle" />
            <span className="text-ink-500">{article.role}</span>
          </p>
          <ArticleMeta date={article.date} isoDate={article.iso_date} readTime={article.read_time} />
        </footer>
      </div>
    </Card>
  )
}
