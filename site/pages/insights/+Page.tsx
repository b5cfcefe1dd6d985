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
import type { ArticleType } from '../../schema/ArticleType'
import type { Data } from './+data'

export default function Page() {
  const { hero, search, featured, latest, resources, newsletter } = useData<Data>().page
  const typeLabels: Record<ArticleType, string> = {
    article: latest.type_labels.article,
    'case-study': latest.type_labels.case_study,
    technical: latest.type_labels.technical,
    whitepaper: latest.type_labels.whitepaper,
  }
  return (
    <>
      {/* The search comes first under the lead; the hero's own actions follow it. */}
      <Hero hero={{ ...hero, actions: [] }}>
        <div className="flex w-full flex-col items-center gap-5 pt-2">
          <InsightsSearchBar search={search} />
          <ActionGroup actions={hero.actions} size="md" align="center" />
        </div>
      </Hero>

      <Section labelledBy="featured-title">
        <SectionHeading id="featured-title" align="left" {...featured.intro} />
        <ul role="list" className="mt-12 grid gap-6 lg:grid-cols-2 lg:gap-8">
          {featured.items.map((article) => (
            <li key={article.title}>
              <FeaturedArticleCard article={article} featuredLabel={featured.featured_label} />
            </li>
          ))}
        </ul>
      </Section>

      <Section tone="muted" labelledBy="latest-title">
        <SectionHeading id="latest-title" align="left" {...latest.intro} />
        <ul role="list" className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {latest.items.map((article, i) => (
            <Reveal as="li" key={article.title} delay={(i % 3) * 100}>
              <LatestArticleCard article={article} typeLabel={typeLabels[article.type]} />
            </Reveal>
          ))}
        </ul>
      </Section>

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
          <NewsletterSignup newsletter={newsletter} headingId="newsletter-title" />
        </Container>
      </section>
    </>
  )
}
