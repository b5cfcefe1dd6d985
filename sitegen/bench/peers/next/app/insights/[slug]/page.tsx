import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { ArticlePage } from '../../../components/ArticlePage'
import { type Authors, type Site, articleJsonLd, articleUrl } from '../../../components/model'
import authorsData from '../../../data/authors.json'
import siteData from '../../../data/site.json'
import { article, articles, related, render } from '../../../lib/articles'

const site: Site = siteData
const authors: Authors = authorsData

type Props = { params: Promise<{ slug: string }> }

export const dynamicParams = false

export function generateStaticParams() {
  return articles().map(({ slug }) => ({ slug }))
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = article((await params).slug)
  if (!found) notFound()
  const url = articleUrl(site, found.slug)
  return {
    title: found.title,
    description: found.excerpt,
    alternates: { canonical: url },
    openGraph: { title: `${found.title} | ${site.name}`, description: found.excerpt, siteName: site.name, type: 'article', url, images: `${site.base_url}${found.image}` },
    twitter: { card: 'summary_large_image' },
  }
}

/** One article: its body rendered with marked, in sitegen's article markup. */
export default async function Page({ params }: Props) {
  const found = article((await params).slug)
  if (!found) notFound()
  const { html, toc } = render(found.body)
  return (
    <>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: articleJsonLd(site, authors, found) }} />
      <ArticlePage site={site} authors={authors} article={found} html={html} toc={toc} related={related(found)} />
    </>
  )
}
