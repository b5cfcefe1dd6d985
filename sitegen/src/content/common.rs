//! Building blocks shared by every page: metadata, heroes, links, icons.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What search engines and browser tabs show for a page, and when it is published.
#[derive(Debug, Clone, Default, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// The `<title>` of the page.
    pub title: String,
    /// The meta description: one or two sentences, shown in search results.
    pub description: String,
    /// The picture link previews show (`og:image`) instead of the page's generated card: a
    /// JPEG, PNG or WebP under `content/images` of at least 1200 x 630 pixels, published
    /// cropped to 1200 x 630.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub share_image: Option<String>,
    /// What `share_image` shows, for its `og:image:alt`; required with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub share_image_alt: Option<String>,
    /// Old paths of this page (`/services/cloud/finops`), each answered with a permanent
    /// redirect here: write one when the page's path changes, so links to the old one keep
    /// working. Listed in no sitemap, feed or search index.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub aliases: Vec<String>,
    /// Whether the page is a draft: left out of a production build (its page, every listing,
    /// the feed, the sitemap, the search index), shown with a banner by `sitegen dev` and
    /// `sitegen build --drafts` or `--preview`. On a service category, its sub-services too.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub draft: bool,
    /// When the page is published: an RFC 3339 time with its offset
    /// (`2026-12-09T09:00:00+02:00`), or a date (`2026-12-09`), meaning 00:00 in `site.yaml`'s
    /// `time_zone`. Until then a production build leaves it out, as it does a draft.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub publish_at: Option<String>,
    /// When the page is withdrawn, written as `publish_at`: from then on a build leaves it out,
    /// and its path answers 410 Gone unless an alias or `redirects.yaml` sends it elsewhere.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub expires_at: Option<String>,
}

impl Meta {
    /// The picture the page names for link previews, with its alternative text.
    pub fn share(&self) -> Option<super::images::ShareImage> {
        Some(super::images::ShareImage {
            src: self.share_image.clone()?,
            alt: self.share_image_alt.clone().unwrap_or_default(),
        })
    }
}

/// The opening block of a page.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    /// Small label above the title.
    #[serde(default)]
    pub eyebrow: Option<String>,
    /// The page's one `<h1>`.
    pub title: String,
    /// Words of the title to accent (must occur in `title`).
    #[serde(default)]
    pub highlight: Option<String>,
    /// The paragraph under the title.
    pub lead: String,
    /// Buttons under the lead, in order.
    #[serde(default)]
    pub actions: Vec<Action>,
}

/// A link styled as a button.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The visible text, which is also the accessible name.
    pub label: String,
    /// Where it leads: an internal path (`/contact`) or an absolute URL.
    pub href: String,
    /// Visual weight.
    #[serde(default)]
    pub style: ActionStyle,
}

/// Visual weight of an [`Action`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, TS, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ActionStyle {
    /// The filled, accent-coloured button.
    #[default]
    Primary,
    /// The outlined button.
    Secondary,
}

/// A plain text link.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// The visible text, which is also the accessible name.
    pub label: String,
    /// Where it leads: an internal path (`/about`, `/about#team`) or an absolute URL.
    pub href: String,
}

/// A figure with its caption, such as `5K+` experts.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Statistic {
    /// The figure as displayed (`99.9%`).
    pub number: String,
    /// What the figure counts.
    pub label: String,
}

/// One question of an FAQ accordion.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaqItem {
    /// The question, shown on the accordion trigger.
    pub question: String,
    /// The answer, shown when the item is open.
    pub answer: String,
}

/// Icons the site can draw, named as in the Lucide icon set (kebab-case).
///
/// A closed list so a typo fails validation instead of rendering nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, TS, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Icon {
    /// LinkedIn brand mark.
    Linkedin,
    /// Twitter brand mark.
    Twitter,
    /// GitHub brand mark.
    Github,
    /// Data analytics.
    ChartColumn,
    /// Artificial intelligence.
    Brain,
    /// Cloud.
    Cloud,
    /// Software.
    Code,
    /// Databases, data platforms.
    Database,
    /// Security.
    Shield,
    /// Speed.
    Zap,
    /// People, teams.
    Users,
    /// Support around the clock.
    Headphones,
    /// Worldwide.
    Globe,
    /// Growth.
    TrendingUp,
    /// Settings, engineering.
    Cog,
    /// Healthcare.
    HeartPulse,
    /// Finance.
    Landmark,
    /// Retail.
    ShoppingCart,
    /// Manufacturing.
    Factory,
    /// Education.
    GraduationCap,
    /// Automotive.
    Car,
    /// Logistics.
    Truck,
    /// Real estate.
    Building,
    /// Mobile.
    Smartphone,
    /// Web.
    Monitor,
    /// Connected devices.
    Cpu,
    /// Blockchain.
    Link,
    /// Vision.
    Eye,
    /// Language.
    MessageSquare,
    /// Delivery pipelines.
    GitBranch,
    /// Locks, compliance.
    Lock,
    /// Documents, whitepapers.
    FileText,
    /// Guides.
    BookOpen,
    /// Checklists.
    ListChecks,
    /// Webinars.
    Video,
    /// Targets, strategy.
    Target,
    /// Rockets, launches.
    Rocket,
    /// Layers, architecture.
    Layers,
    /// Servers, infrastructure.
    Server,
    /// Searching, discovery.
    Search,
    /// Awards, quality.
    Award,
    /// Ideas.
    Lightbulb,
    /// Mail.
    Mail,
    /// Phone.
    Phone,
    /// Location.
    MapPin,
    /// Time.
    Clock,
    /// Checkmarks.
    CircleCheck,
    /// Sparkles, generative AI.
    Sparkles,
    /// Workflow, APIs.
    Workflow,
    /// Testing.
    FlaskConical,
    /// Refresh, modernisation.
    RefreshCw,
}

/// The heading block that opens a section.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionIntro {
    /// Small label above the heading.
    #[serde(default)]
    pub eyebrow: Option<String>,
    /// The section's heading.
    pub title: String,
    /// A sentence or two under the heading.
    #[serde(default)]
    pub lead: Option<String>,
}

/// A tile with an icon, a title and a sentence.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Feature {
    /// The tile's icon.
    pub icon: Icon,
    /// The tile's heading.
    pub title: String,
    /// One or two sentences.
    pub description: String,
}

/// A client story: the challenge, what was built and what it achieved.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseStudy {
    /// The kind of client, never a real name (`A healthcare technology platform`).
    pub client: String,
    /// The card's heading.
    pub title: String,
    /// The problem the client faced.
    pub challenge: String,
    /// What was built, one bullet each.
    pub solution: Vec<String>,
    /// Measured outcomes, one bullet each.
    pub results: Vec<String>,
    /// The button at the end of the card.
    pub action: Action,
}

/// A closing band that asks the visitor to act.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CallToAction {
    /// The band's heading.
    pub title: String,
    /// A sentence under the heading.
    pub lead: String,
    /// Buttons, in order.
    pub actions: Vec<Action>,
}

/// An FAQ section: a heading and an accordion of questions.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Faq {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Questions, in order.
    pub items: Vec<FaqItem>,
}

/// One step of a numbered process.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProcessStep {
    /// The step's number as displayed (`01`).
    pub step: String,
    /// The step's name.
    pub title: String,
    /// What happens in it.
    pub description: String,
}

/// A client's words about working with the company.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Testimonial {
    /// The quotation, without quote marks.
    pub quote: String,
    /// Who said it.
    pub author: String,
    /// Their role.
    pub role: String,
    /// Their company.
    pub company: String,
    /// Stars out of five.
    pub rating: u8,
}

/// A partner or technology logo.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Logo {
    /// The brand's name, used as the image's alternative text.
    pub name: String,
    /// Path of the SVG under `site/public` (`/images/logos/aws.svg`).
    pub logo: String,
}

/// The headings inside each case-study card, so every card of a section reads alike.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseStudyLabels {
    /// Heading of the problem (`Challenge`).
    pub challenge: String,
    /// Heading of the bullets describing what was built (`Solution`).
    pub solution: String,
    /// Heading of the outcome bullets (`Results`).
    pub results: String,
}

/// A section of case-study cards: a heading, the card headings and the stories.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseStudySection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Headings used inside every card.
    pub labels: CaseStudyLabels,
    /// The stories, in order.
    pub items: Vec<CaseStudy>,
}
