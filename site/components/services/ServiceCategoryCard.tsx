import ChevronRight from 'lucide-react/icons/chevron-right'
import type { Icon } from '../../schema/Icon'
import type { Link } from '../../schema/Link'
import { ContentIcon } from '../icons/ContentIcon'
import { ActionLink } from '../ui/ActionLink'

/** What a card shows of a service category. */
export type CategoryCard = {
  name: string
  summary: string
  icon: Icon
  /** The category page. */
  href: string
  /** One link per sub-service page. */
  links: Link[]
}

export type ServiceCategoryCardProps = {
  category: CategoryCard
  /** Label of the button to the category page, e.g. `Explore Cloud Services`. */
  exploreLabel: string
  /** Id of the card's heading, which also names its list of links. */
  headingId: string
}

/** A service category: icon, name, summary, a link to each sub-service and an explore button. */
export function ServiceCategoryCard({ category, exploreLabel, headingId }: ServiceCategoryCardProps) {
  return (
    <article className="flex h-full flex-col gap-6 rounded-panel border border-ink-200/80 bg-white p-6 shadow-card transition-[border-color,box-shadow] duration-200 hover:border-brand-200 hover:shadow-elevated sm:p-8">
      <div className="flex items-start gap-5">
        <span className="grid size-14 shrink-0 place-items-center rounded-2xl bg-brand-600 text-white shadow-brand">
          <ContentIcon icon={category.icon} className="size-7" />
        </span>
        <div className="flex flex-col gap-2">
          <h3 id={headingId} className="text-2xl font-bold tracking-tight text-ink-950">
            {category.name}
          </h3>
          <p className="text-pretty text-ink-600">{category.summary}</p>
        </div>
      </div>
      <ul
        role="list"
        aria-labelledby={headingId}
        className="grid gap-x-6 gap-y-1 border-t border-ink-100 pt-5 sm:grid-cols-2"
      >
        {category.links.map((link) => (
          <li key={link.href}>
            <a
              href={link.href}
              className="group flex items-center gap-2 rounded-md py-1.5 text-sm font-medium text-ink-700 transition-colors hover:text-brand-700"
            >
              <ChevronRight
                aria-hidden="true"
                className="size-4 shrink-0 text-brand-500 transition-transform duration-200 group-hover:translate-x-0.5"
              />
              {link.label}
            </a>
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-2">
        <ActionLink href={category.href} variant="secondary">
          {exploreLabel}
        </ActionLink>
      </div>
    </article>
  )
}
