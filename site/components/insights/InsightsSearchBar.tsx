import Search from 'lucide-react/icons/search'
import SlidersHorizontal from 'lucide-react/icons/sliders-horizontal'
import { useId } from 'react'
import { enhance } from '../../enhance/modules'
import { cx } from '../../lib/cx'
import type { InsightsSearch } from '../../schema/InsightsSearch'
import { buttonClasses } from '../ui/buttonStyles'

export type FilterChoices = {
  categories: { value: string; label: string; href: string }[]
  types: { value: string; label: string }[]
}

export type InsightsSearchBarProps = {
  search: InsightsSearch
  filter: FilterChoices
  /** The search index's entry file (fetched on the box's first focus). */
  indexPath: string
  /** The letters the language's readers type as others (`õo äa`), as the index folds them. */
  fold?: string
  /** The Insights page, whose URL the type choices filter. */
  insightsHref: string
}

const choice =
  'inline-flex rounded-full px-3 py-1.5 text-sm font-semibold text-ink-800 ring-1 ring-ink-200 ring-inset hover:bg-ink-50 aria-pressed:bg-brand-700 aria-pressed:text-white aria-pressed:ring-brand-700'

/**
 * The search box and Filter of the Insights hero.
 * - Search: results appear as the visitor types (enhance/ArticleSearch.ts), from a static index
 *   that is fetched the first time the box gets focus; a live region counts them.
 * - Filter: a disclosure of the categories and types. Without JavaScript the choices are links
 *   (a category to its prerendered listing page); with it they narrow the cards on this page and
 *   update the URL (`?category=cloud-services`, `?type=technical`), see enhance/ArticleFilter.ts.
 */
export function InsightsSearchBar({ search, filter, indexPath, fold, insightsHref }: InsightsSearchBarProps) {
  const id = useId()
  const inputId = `${id}-q`
  const resultsId = `${id}-results`
  const panelId = `${id}-filter`
  return (
    <div className="flex w-full max-w-2xl flex-col gap-3">
      <div className="flex w-full flex-col gap-3 sm:flex-row">
        <div
          role="search"
          aria-label={search.label}
          className="relative flex-1"
          {...enhance('article-search')}
          data-index={indexPath}
          data-fold={fold}
          data-results-label={search.results_label}
          data-no-results={search.no_results}
        >
          <label htmlFor={inputId} className="sr-only">
            {search.label}
          </label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-6 left-4 size-5 -translate-y-1/2 text-ink-400"
          />
          <input
            id={inputId}
            type="search"
            name="q"
            placeholder={search.placeholder}
            autoComplete="off"
            aria-controls={resultsId}
            data-search-input
            className="h-12 w-full rounded-full border border-ink-200 bg-white pr-4 pl-12 text-base text-ink-900 shadow-xs placeholder:text-ink-500 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30"
          />
          <div id={resultsId} data-search-results hidden className="mt-3 rounded-card border border-ink-200 bg-white p-4 text-left shadow-elevated">
            <p role="status" aria-live="polite" data-search-count className="text-sm font-semibold text-ink-700" />
            <ol role="list" data-search-list className="mt-2 flex flex-col divide-y divide-ink-100" />
          </div>
        </div>
        {/* A native disclosure: it opens with or without JavaScript. */}
        <details {...enhance('article-filter')} data-insights-href={insightsHref} className="relative">
          <summary className={buttonClasses('secondary', 'lg', 'w-full list-none sm:w-auto [&::-webkit-details-marker]:hidden')}>
            <SlidersHorizontal aria-hidden="true" />
            {search.filter_label}
          </summary>
          <div
            id={panelId}
            className="mt-3 rounded-card border border-ink-200 bg-white p-4 text-left shadow-elevated sm:absolute sm:right-0 sm:z-20 sm:w-80"
          >
            <p className="text-xs font-semibold tracking-wide text-ink-600 uppercase">{search.categories_label}</p>
            <ul role="list" className="mt-2 flex flex-wrap gap-2">
              {filter.categories.map((c) => (
                <li key={c.value}>
                  <a href={c.href} data-filter="category" data-value={c.value} className={cx(choice)}>
                    {c.label}
                  </a>
                </li>
              ))}
            </ul>
            <p className="mt-4 text-xs font-semibold tracking-wide text-ink-600 uppercase">{search.types_label}</p>
            <ul role="list" className="mt-2 flex flex-wrap gap-2">
              {filter.types.map((t) => (
                <li key={t.value}>
                  <a href={`${insightsHref}/?type=${t.value}`} data-filter="type" data-value={t.value} className={cx(choice)}>
                    {t.label}
                  </a>
                </li>
              ))}
            </ul>
            <p className="mt-4">
              <a href={`${insightsHref}/`} data-filter="clear" className="text-sm font-semibold text-brand-700 underline">
                {search.all_label}
              </a>
            </p>
          </div>
        </details>
      </div>
    </div>
  )
}
