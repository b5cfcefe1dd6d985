import { cx } from '../../lib/cx'

export type InsightsFilterLinksProps = {
  /** The Insights page, listing every article. */
  allHref: string
  allLabel: string
  /** Each category with its prerendered listing page. */
  categories: { value: string; label: string; href: string }[]
  /** The category shown, if any. */
  current?: string
  className?: string
}

/** Links to every category's listing page: the category filter as plain HTML. */
export function InsightsFilterLinks({ allHref, allLabel, categories, current, className }: InsightsFilterLinksProps) {
  const pill = 'inline-flex rounded-full px-4 py-2 text-sm font-semibold ring-1 ring-inset'
  const idle = 'bg-white text-ink-800 ring-ink-200 hover:bg-ink-50'
  const active = 'bg-brand-700 text-white ring-brand-700'
  return (
    <ul role="list" className={cx('flex flex-wrap gap-2', className)}>
      <li>
        <a href={allHref} className={cx(pill, current === undefined ? active : idle)}>
          {allLabel}
        </a>
      </li>
      {categories.map((c) => (
        <li key={c.value}>
          <a
            href={c.href}
            aria-current={c.value === current ? 'page' : undefined}
            className={cx(pill, c.value === current ? active : idle)}
          >
            {c.label}
          </a>
        </li>
      ))}
    </ul>
  )
}
