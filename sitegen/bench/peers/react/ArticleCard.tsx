import { ArticleMeta } from './ArticleMeta'
import { type ArticleSummary, type Authors, type Site, articlePath } from './model'

// Each kind of piece gets its own badge colour (site/components/insights/LatestArticleCard.tsx).
const TYPE_STYLES: Record<string, string> = {
  article: 'bg-brand-50 text-brand-800 ring-brand-100',
  'case-study': 'bg-success-50 text-success-700 ring-success-700/20',
  technical: 'bg-ink-100 text-ink-800 ring-ink-200',
  whitepaper: 'bg-warning-400/15 text-ink-900 ring-warning-500/30',
}

/** A related article: illustration, type badge, category, title, excerpt, author and dates. */
export function ArticleCard({ site, authors, article }: { site: Site; authors: Authors; article: ArticleSummary }) {
  const author = authors[article.author]
  return (
    <article className="relative flex flex-col rounded-card border border-ink-200/80 bg-white shadow-card h-full overflow-hidden transition-[box-shadow,transform] duration-200 hover:-translate-y-0.5 hover:shadow-elevated">
      <img src={article.image} alt={article.image_alt} width={640} height={360} loading="lazy" decoding="async" className="aspect-video w-full bg-brand-900 object-cover" />
      <div className="flex flex-1 flex-col gap-4 p-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TYPE_STYLES[article.type]}`}>{site.type_labels[article.type]}</span>
          <span className="text-sm font-medium text-brand-700">{site.categories[article.category]}</span>
        </div>
        <h3 className="text-lg leading-snug font-semibold tracking-tight text-balance text-ink-950">
          <a href={articlePath(article.slug)} className="rounded-sm hover:text-brand-700 hover:underline">
            {article.title}
          </a>
        </h3>
        <p className="text-pretty text-sm leading-relaxed text-ink-600">{article.excerpt}</p>
        <footer className="mt-auto flex flex-col gap-3 border-t border-ink-100 pt-4">
          <p className="text-sm">
            <span className="font-semibold text-ink-900">{author.name}</span>
            <span aria-hidden="true" className="mx-2 inline-block size-1 rounded-full bg-ink-300 align-middle" />
            <span className="text-ink-500">{author.role}</span>
          </p>
          <ArticleMeta date={article.date} words={article.words} suffix={site.article.read_time_suffix} />
        </footer>
      </div>
    </article>
  )
}
