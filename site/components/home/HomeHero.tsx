import type { Hero as HeroContent } from '../../schema/Hero'
import { Hero } from '../ui/Hero'
import { TypingHeadline } from './TypingHeadline'

export type HomeHeroProps = {
  /** The home hero; its `highlight` is the phrase the headline types. */
  hero: HeroContent
}

/** The home page's opening band, with the typing headline. */
export function HomeHero({ hero }: HomeHeroProps) {
  return (
    <Hero
      hero={hero}
      headingId="home-hero-title"
      title={hero.highlight ? <TypingHeadline text={hero.title} phrase={hero.highlight} /> : undefined}
    />
  )
}
