import { useData } from 'vike-react/useData'
import { FeaturedArticleCard } from '../../components/insights/FeaturedArticleCard'
import { InsightsSearchBar } from '../../components/insights/InsightsSearchBar'
import { LatestArticleCard } from '../../components/insights/LatestArticleCard'
import { NewsletterSignup } from '../../components/insights/NewsletterSignup'
import { ResourceCard } from '../../components/insights/ResourceCard'
import { ActionGroup } from '../../components/ui/ActionGroup'
import { Container } from '../../components/ui/Container'
import { Hero } from '../../components/ui/Hero'
import { Reveal } from '../../components/ui/Reveal'
import { Section } from '../../components/ui/Section'
import { SectionHeading } from '../../components/ui/SectionHeading'
import type { Data } from './+data'

// A list with nothing in the page's language is left out with its heading (none of the featured
// articles may be translated yet), as every listing of the site is: an empty list is not shown,
// and English items are not mixed into another language's page.
export default function Page() {
  const data = useData<Data>()
  const { hero, search, featured, latest, resources, newsletter } = data.page
  return (
    <>
      {/* The search comes first under the lead; the hero's own actions follow it. */}
      <Hero hero={{ ...hero, actions: [] }}>
        <div className="flex w-full flex-col items-center gap-5 pt-2">
          <InsightsSearchBar search={search} filter={data.filter} indexPath={data.searchIndex} fold={data.searchFold} insightsHref={data.insightsHref} />
          <ActionGroup actions={hero.actions} size="md" align="center" />
        </div>
      </Hero>

      {data.featured.length > 0 && (
        <Section labelledBy="featured-title">
          <SectionHeading id="featured-title" align="left" {...featured.intro} />
          <ul role="list" className="mt-12 grid gap-6 lg:grid-cols-2 lg:gap-8">
            {data.featured.map((article) => (
              <li key={article.slug} data-article-card data-category={article.category_slug} data-type={article.type}>
                <FeaturedArticleCard article={article} featuredLabel={featured.featured_label} />
              </li>
            ))}
          </ul>
        </Section>
      )}

      {data.latest.length > 0 && (
        <Section tone="muted" labelledBy="latest-title">
          <SectionHeading id="latest-title" align="left" {...latest.intro} />
          <ul role="list" className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {data.latest.map((article, i) => (
              <li
                key={article.slug}
                data-article-card
                data-category={article.category_slug}
                data-type={article.type}
                data-extra={i >= data.latestCount ? '' : undefined}
                hidden={i >= data.latestCount}
              >
                <Reveal className="h-full" delay={(i % 3) * 100}>
                  <LatestArticleCard article={article} typeLabel={article.type_label} />
                </Reveal>
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section labelledBy="resources-title">
        <SectionHeading id="resources-title" {...resources.intro} />
        <ul role="list" className="mt-12 grid gap-5 sm:grid-cols-2 lg:gap-6 xl:grid-cols-4">
          {resources.items.map((resource, i) => (
            <Reveal as="li" key={resource.title} delay={i * 100}>
              <ResourceCard resource={resource} downloadsLabel={resources.downloads_label} />
            </Reveal>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="newsletter-title" className="bg-white pb-20 sm:pb-24 lg:pb-28">
        <Container>
          <NewsletterSignup
            newsletter={newsletter}
            form={data.newsletterForm}
            endpoint={data.endpoint}
            headingId="newsletter-title"
          />
        </Container>
      </section>
    </>
  )
}
