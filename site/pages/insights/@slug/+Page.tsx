import ArrowLeft from 'lucide-react/icons/arrow-left'
import { useData } from 'vike-react/useData'
import { ArticleMeta } from '../../../components/insights/ArticleMeta'
import { AuthorByline } from '../../../components/insights/AuthorByline'
import { LatestArticleCard } from '../../../components/insights/LatestArticleCard'
import { Container } from '../../../components/ui/Container'
import { CtaBand } from '../../../components/ui/CtaBand'
import { Section } from '../../../components/ui/Section'
import type { Data } from './+data'
import { Picture } from '../../../components/ui/Picture'

export default function Page() {
  const { page: article, related, categoryHref } = useData<Data>()
  const { words } = article
  return (
    <>
      <article aria-labelledby="article-title">
        <header className="bg-ink-50 pt-12 pb-10 sm:pt-16">
          <Container size="prose">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <a
                href={categoryHref}
                className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 font-semibold text-brand-800 ring-1 ring-brand-100 ring-inset hover:bg-brand-100"
              >
                <ArrowLeft aria-hidden="true" className="size-3.5" />
                {article.category}
              </a>
              <span className="rounded-full bg-white px-3 py-1 font-semibold text-ink-800 ring-1 ring-ink-200 ring-inset">
                {article.type_label}
              </span>
            </p>
            <h1 id="article-title" className="mt-5 text-title text-balance text-ink-950">
              {article.title}
            </h1>
            <p className="mt-5 text-pretty text-lead text-ink-600">{article.excerpt}</p>
            <div className="mt-8 flex flex-wrap items-center justify-between gap-4 border-t border-ink-200 pt-6">
              <AuthorByline name={article.author} role={article.role} avatar={article.avatar} avatarAlt={article.avatar_alt} size="lg" eager />
              <ArticleMeta date={article.date} isoDate={article.iso_date} readTime={article.read_time} className="text-ink-600" />
            </div>
          </Container>
        </header>
        <Container size="prose" className="py-10 sm:py-14">
          <Picture
            src={article.image}
            alt={article.image_alt}
            width={1280}
            height={720}
            sizes="(min-width: 48rem) 44rem, 100vw"
            priority="high"
            className="aspect-video w-full rounded-panel bg-brand-900 object-cover shadow-card"
          />
          {article.toc.length > 0 && (
            <nav aria-labelledby="toc-title" className="mt-10 rounded-card border border-ink-200 bg-white p-6">
              <h2 id="toc-title" className="text-sm font-semibold tracking-wide text-ink-900 uppercase">
                {words.toc_label}
              </h2>
              <ol className="mt-3 flex flex-col gap-2 text-sm">
                {article.toc.map((entry) => (
                  <li key={entry.id} className={entry.level === 3 ? 'pl-4' : undefined}>
                    <a href={`#${entry.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                      {entry.text}
                    </a>
                  </li>
                ))}
              </ol>
            </nav>
          )}
          {/* Rendered from Markdown by sitegen at build time (headings, tables, highlighted code). */}
          <div className="article-body mt-10" dangerouslySetInnerHTML={{ __html: article.html }} />
        </Container>
      </article>

      {related.length > 0 && (
        <Section tone="muted" labelledBy="related-title">
          <h2 id="related-title" className="text-title text-ink-950">
            {words.related_title}
          </h2>
          <ul role="list" className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {related.map((card) => (
              <li key={card.slug}>
                <LatestArticleCard article={card} typeLabel={card.type_label} />
              </li>
            ))}
          </ul>
        </Section>
      )}

      <CtaBand cta={words.cta} headingId="article-cta-title" />
    </>
  )
}
