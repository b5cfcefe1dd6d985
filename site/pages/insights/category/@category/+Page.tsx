import { useData } from 'vike-react/useData'
import { InsightsFilterLinks } from '../../../../components/insights/InsightsFilterLinks'
import { LatestArticleCard } from '../../../../components/insights/LatestArticleCard'
import { Hero } from '../../../../components/ui/Hero'
import { Section } from '../../../../components/ui/Section'
import type { Data } from './+data'

// A service category's articles, prerendered: the filter's category choices without JavaScript.
export default function Page() {
  const { page, articles, filter, current, insightsHref } = useData<Data>()
  return (
    <>
      <Hero hero={page.hero} />
      <Section labelledBy="category-list-title">
        <h2 id="category-list-title" className="text-title text-ink-950">
          {page.list_title}
        </h2>
        <InsightsFilterLinks
          className="mt-6"
          allHref={insightsHref}
          allLabel={page.all_label}
          categories={filter.categories}
          current={current}
        />
        <ul role="list" className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {articles.map((card) => (
            <li key={card.slug}>
              <LatestArticleCard article={card} typeLabel={card.type_label} />
            </li>
          ))}
        </ul>
      </Section>
    </>
  )
}
