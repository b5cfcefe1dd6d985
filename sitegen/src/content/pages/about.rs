//! The About page (`/about`), from `content/pages/about.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{
    CallToAction, Feature, Hero, Icon, Logo, Meta, SectionIntro, Statistic,
};

/// The About page (`/about`), from `content/pages/about.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AboutPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// Mission and Vision: one card each.
    pub mission_vision: PurposeSection,
    /// Leadership That Drives Innovation: what sets the company apart, with its figures.
    pub leadership: LeadershipSection,
    /// Our Story.
    pub story: StorySection,
    /// Our Journey to Excellence: the dated milestones.
    pub timeline: TimelineSection,
    /// Our Technology Stack: logo groups and three delivery cases.
    pub tech_stack: AboutStackSection,
    /// Leadership Team: the people cards.
    pub team: TeamSection,
    /// Join Our Mission: the closing call to action, reachable by its anchor.
    pub join: AnchoredCallToAction,
}

/// A heading and a few feature cards side by side.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PurposeSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The cards, in order.
    pub items: Vec<Feature>,
}

/// A heading, paragraphs, figures and the strengths behind them.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeadershipSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The headline figures.
    pub stats: Vec<Statistic>,
    /// The strengths, one tile each.
    pub items: Vec<Feature>,
}

/// A heading and running text.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StorySection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Paragraphs, in order.
    pub paragraphs: Vec<String>,
    /// A short quotation set beside the text.
    pub quote: String,
}

/// A heading and dated milestones.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimelineSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Milestones, oldest first.
    pub entries: Vec<TimelineEntry>,
}

/// One milestone of the timeline.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimelineEntry {
    /// The year as displayed (`2019`).
    pub year: String,
    /// The milestone's name.
    pub title: String,
    /// What happened.
    pub description: String,
    /// The milestone's icon.
    pub icon: Icon,
}

/// Technology logo groups and the delivery cases that used them.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AboutStackSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Groups of logos (cloud, AI), each under its own heading.
    pub groups: Vec<LogoGroup>,
    /// The labels of each case's three parts.
    pub case_labels: CaseLabels,
    /// Delivery cases (Frontend, Backend, DevOps and Infrastructure).
    pub cases: Vec<StackCase>,
}

/// A titled group of logos.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogoGroup {
    /// The group's heading.
    pub title: String,
    /// The logos, in order.
    pub logos: Vec<Logo>,
}

/// The labels shown before a case's challenge, solution and result.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseLabels {
    /// Label of the challenge (`Challenge`).
    pub challenge: String,
    /// Label of the solution (`Solution`).
    pub solution: String,
    /// Label of the result (`Result`).
    pub result: String,
}

/// One engineering area with a challenge, how it was met and the outcome.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackCase {
    /// The area's icon.
    pub icon: Icon,
    /// The area (`Frontend`).
    pub title: String,
    /// Technologies used, shown as tags.
    pub technologies: Vec<String>,
    /// The problem.
    pub challenge: String,
    /// What was built.
    pub solution: String,
    /// The measured outcome.
    pub result: String,
}

/// A heading and the people cards.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The people, in order.
    pub people: Vec<Person>,
}

/// A member of the leadership team.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Person {
    /// Full name.
    pub name: String,
    /// Job title.
    pub role: String,
    /// Two or three sentences.
    pub bio: String,
    /// Portrait: an SVG under `site/public` or a photo under `content/images`
    /// (`/images/team/anna.jpg`).
    pub avatar: String,
    /// The portrait's alternative text; leave it out with `decorative: true` (the name is
    /// shown beside it).
    #[serde(default)]
    pub avatar_alt: String,
    /// Whether the picture adds nothing the words beside it do not say: then it is shown
    /// with empty alternative text, and `avatar_alt` is left out.
    #[serde(default)]
    pub decorative: bool,
}

/// A call to action with an anchor id, so links such as `/about#join-our-mission` reach it.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnchoredCallToAction {
    /// The section's `id`, the anchor links lead to (lowercase letters, digits and hyphens).
    pub id: String,
    /// The band itself.
    pub cta: CallToAction,
}
