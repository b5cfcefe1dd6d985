import { useData } from 'vike-react/useData'
import { BlogArticleCard } from '../../components/blog/BlogArticleCard'
import { Hero } from '../../components/ui/Hero'
import { Section } from '../../components/ui/Section'
import { SectionHeading } from '../../components/ui/SectionHeading'
import type { Data } from './+data'

export default function Page() {
  const { page, articles: cards } = useData<Data>()
  const { hero, articles } = page
  return (
    <>
      <Hero hero={hero} />
      {/* Left out with its heading when no article is in the page's language (insights/+Page.tsx). */}
      {cards.length > 0 && (
        <Section labelledBy="articles-title">
          <SectionHeading id="articles-title" align="left" {...articles.intro} />
          <ul role="list" className="mt-12 grid gap-6 md:grid-cols-2 lg:gap-8">
            {cards.map((article) => (
              <li key={article.title}>
                <BlogArticleCard article={article} readMore={articles.read_more} />
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  )
}
