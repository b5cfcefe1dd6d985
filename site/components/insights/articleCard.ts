import type { ArticleType } from '../../schema/ArticleType'

/** What a card shows of an article, with the link to its page (lib/articles.server.ts builds it). */
export type ArticleCardData = {
  slug: string
  href: string
  title: string
  excerpt: string
  /** As displayed (`March 14, 2024`). */
  date: string
  /** ISO date, for `<time datetime>`. */
  iso_date: string
  /** As displayed (`6 min read`). */
  read_time: string
  /** The category's name (`Cloud Services`). */
  category: string
  category_slug: string
  type: ArticleType
  /** The type's badge text (`Case Study`). */
  type_label: string
  image: string
  image_alt: string
  author: string
  role: string
  avatar: string
  /** The portrait's alternative text; empty when it is decorative. */
  avatar_alt: string
  featured: boolean
}
