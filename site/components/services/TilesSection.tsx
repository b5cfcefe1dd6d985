import type { Tiles } from '../../schema/Tiles'
import { FeatureGrid } from '../ui/FeatureGrid'
import { Section } from '../ui/Section'
import { SectionHeading } from '../ui/SectionHeading'

export type TilesSectionProps = {
  tiles: Tiles
  headingId: string
}

/** A sub-service's grid of tiles (such as the platforms it covers) under a heading. */
export function TilesSection({ tiles, headingId }: TilesSectionProps) {
  return (
    <Section tone="muted" labelledBy={headingId}>
      <SectionHeading id={headingId} eyebrow={tiles.intro.eyebrow} title={tiles.intro.title} lead={tiles.intro.lead} />
      <FeatureGrid features={tiles.items} className="mt-12 sm:mt-16" />
    </Section>
  )
}
