import { Search, SlidersHorizontal } from 'lucide-react'
import { useId } from 'react'
import type { InsightsSearch } from '../../schema/InsightsSearch'
import { Button } from '../ui/Button'

export type InsightsSearchBarProps = {
  search: InsightsSearch
}

/**
 * The search box and Filter button of the Insights hero. Searching and filtering are not
 * offered yet: the controls are shown and labelled, and neither submits anything.
 */
export function InsightsSearchBar({ search }: InsightsSearchBarProps) {
  const inputId = useId()
  return (
    <div role="search" aria-label={search.label} className="flex w-full max-w-2xl flex-col gap-3 sm:flex-row">
      <div className="relative flex-1">
        <label htmlFor={inputId} className="sr-only">
          {search.label}
        </label>
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-ink-400"
        />
        <input
          id={inputId}
          type="search"
          name="q"
          placeholder={search.placeholder}
          autoComplete="off"
          className="h-12 w-full rounded-full border border-ink-200 bg-white pr-4 pl-12 text-base text-ink-900 shadow-xs placeholder:text-ink-500 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30"
        />
      </div>
      <Button variant="secondary" size="lg">
        <SlidersHorizontal aria-hidden="true" />
        {search.filter_label}
      </Button>
    </div>
  )
}
