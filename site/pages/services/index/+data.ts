import { loadContent } from '../../../lib/content.server'

export type Data = ReturnType<typeof data>

export function data() {
  const { pages, services } = loadContent()
  return {
    page: pages.services,
    // Only what the cards show of each category; the rest belongs to the category pages.
    categories: services.map((category) => {
      const href = `/services/${category.slug}`
      return {
        name: category.name,
        summary: category.summary,
        icon: category.icon,
        href,
        links: category.sub_services.map((sub) => ({ label: sub.name, href: `${href}/${sub.slug}` })),
      }
    }),
  }
}
