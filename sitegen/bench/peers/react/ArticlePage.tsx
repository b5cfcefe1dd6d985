import ArrowLeft from 'lucide-react/icons/arrow-left'
import ArrowRight from 'lucide-react/icons/arrow-right'
import { ArticleCard } from './ArticleCard'
import { ArticleMeta } from './ArticleMeta'
import { type ArticleSummary, type Authors, type Heading, type Site, TOC_MIN_HEADINGS } from './model'

export type ArticlePageProps = {
  site: Site
  authors: Authors
  article: ArticleSummary
  /** The body, rendered from Markdown by the peer's own Markdown pipeline. */
  html: string
  toc: Heading[]
  related: ArticleSummary[]
}

/**
 * An article page's main (site/pages/insights/@slug/+Page.tsx): header with category, type,
 * title, excerpt, author and dates; picture, table of contents and body; related articles; the
 * call to action.
 */
export function ArticlePage({ site, authors, article, html, toc, related }: ArticlePageProps) {
  const author = authors[article.author]
  const words = site.article
  return (
    <>
      <article aria-labelledby="article-title">
        <header className="bg-ink-50 pt-12 pb-10 sm:pt-16">
          <div className="mx-auto w-full px-5 sm:px-6 lg:px-8 max-w-prose">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <a
                href={`/insights/category/${article.category}`}
                className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 font-semibold text-brand-800 ring-1 ring-brand-100 ring-inset hover:bg-brand-100"
              >
                <ArrowLeft aria-hidden="true" className="size-3.5" />
                {site.categories[article.category]}
              </a>
              <span className="rounded-full bg-white px-3 py-1 font-semibold text-ink-800 ring-1 ring-ink-200 ring-inset">{site.type_labels[article.type]}</span>
            </p>
            <h1 id="article-title" className="mt-5 text-title text-balance text-ink-950">
              {article.title}
            </h1>
            <p className="mt-5 text-pretty text-lead text-ink-600">{article.excerpt}</p>
            <div className="mt-8 flex flex-wrap items-center justify-between gap-4 border-t border-ink-200 pt-6">
              <div className="flex items-center gap-3">
                <img src={author.avatar} alt="" width={48} height={48} decoding="async" className="size-12 shrink-0 rounded-full ring-2 ring-white" />
                <p className="flex flex-col">
                  <span className="font-semibold text-ink-900">{author.name}</span>
                  <span className="text-sm text-ink-600">{author.role}</span>
                </p>
              </div>
              <ArticleMeta date={article.date} words={article.words} suffix={words.read_time_suffix} className="text-ink-600" />
            </div>
          </div>
        </header>
        <div className="mx-auto w-full px-5 sm:px-6 lg:px-8 max-w-prose py-10 sm:py-14">
          <img
            src={article.image}
            alt={article.image_alt}
            width={1280}
            height={720}
            fetchPriority="high"
            decoding="async"
            className="aspect-video w-full rounded-panel bg-brand-900 object-cover shadow-card"
          />
          {toc.length >= TOC_MIN_HEADINGS && (
            <nav aria-labelledby="toc-title" className="mt-10 rounded-card border border-ink-200 bg-white p-6">
              <h2 id="toc-title" className="text-sm font-semibold tracking-wide text-ink-900 uppercase">
                {words.toc_label}
              </h2>
              <ol className="mt-3 flex flex-col gap-2 text-sm">
                {toc.map((entry) => (
                  <li key={entry.id} className={entry.level === 3 ? 'pl-4' : undefined}>
                    <a href={`#${entry.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                      {entry.text}
                    </a>
                  </li>
                ))}
              </ol>
            </nav>
          )}
          <div className="article-body mt-10" dangerouslySetInnerHTML={{ __html: html }} />
        </div>
      </article>
      {related.length > 0 && (
        <section aria-labelledby="related-title" data-tone="muted" className="relative py-20 sm:py-24 lg:py-28 bg-ink-50 text-ink-900 border-y border-ink-100">
          <div className="mx-auto w-full px-5 sm:px-6 lg:px-8 max-w-page">
            <h2 id="related-title" className="text-title text-ink-950">
              {words.related_title}
            </h2>
            <ul role="list" className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {related.map((card) => (
                <li key={card.slug}>
                  <ArticleCard site={site} authors={authors} article={card} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}
      <section aria-labelledby="article-cta-title" className="bg-white py-16 sm:py-20 lg:py-24">
        <div className="mx-auto w-full px-5 sm:px-6 lg:px-8 max-w-page">
          <div className="relative isolate overflow-hidden rounded-panel bg-brand-800 px-6 py-14 text-center shadow-elevated sm:px-12 sm:py-20">
            <div
              aria-hidden="true"
              className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_22rem_at_15%_-10%,rgb(99_102_241/0.9),transparent_70%),radial-gradient(36rem_20rem_at_100%_110%,rgb(30_27_75/0.85),transparent_70%)]"
            />
            <div aria-hidden="true" className="bg-grid absolute inset-0 -z-10 opacity-40 invert" />
            <div className="mx-auto flex max-w-2xl flex-col items-center gap-5">
              <h2 id="article-cta-title" className="text-title text-balance text-white">
                {words.cta.title}
              </h2>
              <p className="text-pretty text-lead text-brand-100">{words.cta.lead}</p>
              <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-center pt-3">
                {words.cta.actions.map((action) => (
                  <a
                    key={action.href}
                    href={action.href}
                    className="inline-flex items-center justify-center gap-2 rounded-full font-semibold whitespace-nowrap transition-[background-color,box-shadow,color,transform] duration-200 disabled:pointer-events-none disabled:opacity-60 [&>svg]:size-4 [&>svg]:shrink-0 bg-white text-brand-800 hover:bg-brand-50 h-12 px-6 text-base group w-full sm:w-auto"
                  >
                    {action.label}
                    <ArrowRight aria-hidden="true" className="transition-transform duration-200 group-hover:translate-x-0.5" />
                  </a>
                ))}
              </div>
            </div>
          </div>
        </div>
      </section>
    </>
  )
}
