import { useData } from 'vike-react/useData'
import { InsightsFilterLinks } from '../../../../components/insights/InsightsFilterLinks'
import { LatestArticleCard } from '../../../../components/insights/LatestArticleCard'
import { Pager } from '../../../../components/insights/Pager'
import { Hero } from '../../../../components/ui/Hero'
import { Section } from '../../../../components/ui/Section'
import type { Data } from './+data'

// A service category's articles, newest first, one page of them (the rest on the pages the pager
// links): the filter's category choices without JavaScript.
export default function Page() {
  const { page, articles, pager, filter, current, insightsHref } = useData<Data>()
  return (
    <>
      <Hero hero={page.hero} />
      {/* Without an article in the page's language the list and its heading are left out, as
          every listing's are (insights/+Page.tsx); the filter still leads to the other categories. */}
      <Section labelledBy={articles.length > 0 ? 'category-list-title' : undefined}>
        {articles.length > 0 && (
          <h2 id="category-list-title" className="text-title text-ink-950">
            {page.list_title}
          </h2>
        )}
        <InsightsFilterLinks
          className="mt-6"
          allHref={insightsHref}
          allLabel={page.all_label}
          categories={filter.categories}
          current={current}
        />
        {articles.length > 0 && (
          <ul role="list" className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {articles.map((card) => (
              <li key={card.slug}>
                <LatestArticleCard article={card} typeLabel={card.type_label} />
              </li>
            ))}
          </ul>
        )}
        {pager && <Pager {...pager} />}
      </Section>
    </>
  )
}
