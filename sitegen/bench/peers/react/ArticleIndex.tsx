import { type ArticleSummary, type Authors, articlePath, displayDate, isoDate } from './model'

/** The index: every article, newest first, with its excerpt, author and date (as the plain peers' index). */
export function ArticleIndex({ authors, articles }: { authors: Authors; articles: ArticleSummary[] }) {
  return (
    <div className="mx-auto w-full px-5 sm:px-6 lg:px-8 max-w-page py-10">
      <h1 className="text-title text-ink-950">Insights</h1>
      <ul role="list" className="mt-10 flex flex-col gap-6">
        {articles.map((article) => (
          <li key={article.slug}>
            <article>
              <h2 className="text-lg font-semibold text-ink-950">
                <a href={articlePath(article.slug)}>{article.title}</a>
              </h2>
              <p className="text-sm text-ink-600">{article.excerpt}</p>
              <p className="text-sm text-ink-500">
                {authors[article.author].name} · <time dateTime={isoDate(article.date)}>{displayDate(article.date)}</time>
              </p>
            </article>
          </li>
        ))}
      </ul>
    </div>
  )
}
