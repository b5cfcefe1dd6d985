import type { CategoriesSection } from '../../schema/CategoriesSection'
import { Reveal } from '../ui/Reveal'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'
import { type CategoryCard, ServiceCategoryCard } from './ServiceCategoryCard'

export type ServiceCategoryCardsProps = {
  section: CategoriesSection
  categories: CategoryCard[]
}

/** The service categories as a grid of cards under the section heading. */
export function ServiceCategoryCards({ section, categories }: ServiceCategoryCardsProps) {
  return (
    <Section labelledBy="categories-title">
      <Reveal>
        <SectionHeading id="categories-title" {...section.intro} />
      </Reveal>
      <ul role="list" className="mt-14 grid gap-6 md:grid-cols-2">
        {categories.map((category, i) => (
          <Reveal as="li" key={category.href} delay={(i % 2) * 120}>
            <ServiceCategoryCard
              category={category}
              headingId={`category-${i}-title`}
              // `{name}` in the content's label is the category's name.
              exploreLabel={section.explore_label.replaceAll('{name}', category.name)}
            />
          </Reveal>
        ))}
      </ul>
    </Section>
  )
}
