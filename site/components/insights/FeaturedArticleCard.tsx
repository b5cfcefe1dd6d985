import Sparkles from 'lucide-react/icons/sparkles'
import { ArticleImage } from './ArticleImage'
import { AuthorByline } from './AuthorByline'
import { ArticleMeta } from './ArticleMeta'
import type { ArticleCardData } from './articleCard'

export type FeaturedArticleCardProps = {
  article: ArticleCardData
  /** The badge shown when the article's `featured` flag is set. */
  featuredLabel: string
}

/** A featured article: large illustration, badges, title, excerpt, author and dates. */
export function FeaturedArticleCard({ article, featuredLabel }: FeaturedArticleCardProps) {
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-panel border border-ink-200/80 bg-white shadow-card">
      <ArticleImage src={article.image} alt={article.image_alt} />
      <div className="flex flex-1 flex-col gap-5 p-6 sm:p-8">
        <div className="flex flex-wrap items-center gap-2">
          {article.featured && (
            <span className="inline-flex items-center gap-1.5 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
              <Sparkles aria-hidden="true" className="size-3.5" />
              {featuredLabel}
            </span>
          )}
          <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-800 ring-1 ring-brand-100 ring-inset">
            {article.category}
          </span>
        </div>
        <h3 className="text-subtitle text-balance text-ink-950 lg:text-2xl">
          <a href={article.href} className="rounded-sm hover:text-brand-700 hover:underline">
            {article.title}
          </a>
        </h3>
        <p className="text-pretty text-ink-600">{article.excerpt}</p>
        <footer className="mt-auto flex flex-wrap items-center justify-between gap-4 border-t border-ink-100 pt-5">
          <AuthorByline name={article.author} role={article.role} avatar={article.avatar} avatarAlt={article.avatar_alt} />
          <ArticleMeta date={article.date} isoDate={article.iso_date} readTime={article.read_time} />
        </footer>
      </div>
    </article>
  )
}
