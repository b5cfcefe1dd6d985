import ArrowRight from 'lucide-react/icons/arrow-right'
import Check from 'lucide-react/icons/check'
import type { Industry } from '../../schema/Industry'
import type { Link } from '../../schema/Link'
import { cx } from '../../lib/cx'
import { ContentIcon } from '../icons/ContentIcon'
import { Picture } from '../ui/Picture'

export type IndustryBlockProps = {
  industry: Industry
  /** Heading of the key-solutions list. */
  solutionsLabel: string
  /** The link at the end of the block. */
  explore: Link
  /** Put the illustration on the left from `lg` up, for the alternating layout. */
  flipped: boolean
}

/** One industry: icon, title, description, key solutions and a link, beside its illustration. */
export function IndustryBlock({ industry, solutionsLabel, explore, flipped }: IndustryBlockProps) {
  return (
    <article className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
      <div className={cx('flex flex-col gap-5', flipped && 'lg:order-2')}>
        <span
          aria-hidden="true"
          className="grid size-14 place-items-center rounded-2xl bg-brand-600 text-white shadow-brand"
        >
          <ContentIcon icon={industry.icon} className="size-7" />
        </span>
        <h3 className="text-[clamp(1.5rem,1.3rem+0.8vw,2rem)] leading-tight font-bold tracking-tight text-balance text-ink-950">
          {industry.title}
        </h3>
        <p className="text-pretty text-lead text-ink-600">{industry.description}</p>
        <div className="flex flex-col gap-3 pt-1">
          <h4 className="text-eyebrow uppercase text-ink-500">{solutionsLabel}</h4>
          <ul role="list" className="grid gap-3 sm:grid-cols-2">
            {industry.solutions.map((solution) => (
              <li key={solution} className="flex items-start gap-3 text-ink-800">
                <span
                  aria-hidden="true"
                  className="mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-brand-100 text-brand-700"
                >
                  <Check className="size-3.5" strokeWidth={3} />
                </span>
                {solution}
              </li>
            ))}
          </ul>
        </div>
        <a
          href={explore.href}
          className="group mt-2 inline-flex w-fit items-center gap-2 rounded-full font-semibold text-brand-700 underline-offset-4 hover:underline"
        >
          {explore.label}
          <ArrowRight aria-hidden="true" className="size-4 transition-transform duration-200 group-hover:translate-x-0.5" />
        </a>
      </div>
      <div className={cx('relative', flipped && 'lg:order-1')}>
        <div aria-hidden="true" className="absolute -inset-3 -z-10 rounded-[2rem] bg-brand-100/60 blur-2xl" />
        <Picture
          src={industry.image}
          alt={industry.image_alt}
          width={640}
          height={480}
          sizes="(min-width: 1024px) 38rem, 100vw"
          className="h-auto w-full rounded-panel border border-ink-200/80 shadow-elevated"
        />
      </div>
    </article>
  )
}
