import type { Statistic } from '../../schema/Statistic'
import { Container } from './Container'
import { StatsRow } from './StatsRow'

export type HeroStatsProps = {
  stats: Statistic[]
}

/** Headline figures on cards that overlap the bottom edge of the hero just above. */
export function HeroStats({ stats }: HeroStatsProps) {
  return (
    <div className="relative -mt-12 sm:-mt-16 lg:-mt-20">
      <Container>
        <StatsRow stats={stats} variant="card" className="mx-auto max-w-5xl" />
      </Container>
    </div>
  )
}
