import { useData } from 'vike-react/useData'
import { LeadershipSection } from '../../components/about/LeadershipSection'
import { MissionVisionSection } from '../../components/about/MissionVisionSection'
import { StorySection } from '../../components/about/StorySection'
import { TeamSection } from '../../components/about/TeamSection'
import { TechStackCases } from '../../components/about/TechStackCases'
import { TimelineSection } from '../../components/about/TimelineSection'
import { CtaBand } from '../../components/ui/CtaBand'
import { Hero } from '../../components/ui/Hero'
import { Reveal } from '../../components/ui/Reveal'
import type { Data } from './+data'

export default function Page() {
  const { page } = useData<Data>()
  return (
    <>
      <Hero hero={page.hero} headingId="about-hero-title" />
      <MissionVisionSection section={page.mission_vision} />
      <LeadershipSection section={page.leadership} />
      <StorySection section={page.story} />
      <TimelineSection section={page.timeline} />
      <TechStackCases section={page.tech_stack} />
      <TeamSection section={page.team} />
      <Reveal>
        <CtaBand cta={page.join.cta} id={page.join.id} />
      </Reveal>
    </>
  )
}
