//! Drafts and scheduled content: which pieces a build publishes, at the time it runs.
//!
//! An article (in its front matter), and every page, service category and sub-service (in its
//! `meta`) may say `draft: true`, `publish_at` and `expires_at`. Whether a piece is shown is a
//! function of those fields, of the build's [`Publishing`] (its time, and whether it shows drafts
//! or what is not yet due) and of `site.yaml`'s `time_zone`. The loader takes what is not shown
//! out of the model before any route, listing, feed, sitemap, search index or alternate is made
//! from it, so none of them can name it; what is left out is kept aside ([`Unpublished`]) so that
//! a link to it is an error naming both files, and an expired page is answered as gone.
//!
//! The build is a function of the content and the time: [`NOW_ENV`] fixes the time, and
//! [`Content::next_change_at`](super::Content::next_change_at) says when the next build would
//! publish or withdraw something, so CI can schedule it.

use std::collections::HashMap;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::loader::Loader;
use super::routes::RouteKind;
use super::settings::Settings;
use super::{Content, FixedPage};

/// The environment variable that fixes a build's time (RFC 3339, `2026-12-09T07:00:00Z`): for
/// tests, and to reproduce a build of another moment.
pub const NOW_ENV: &str = "SITEGEN_NOW";

/// What a build shows besides the published pieces, at what time, and where.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Publishing {
    /// Show drafts (`sitegen build --drafts`).
    pub drafts: bool,
    /// Show what is not yet due (`sitegen build --future`).
    pub future: bool,
    /// The time the build runs at; `None`: [`NOW_ENV`], else the clock, when the content is
    /// loaded.
    pub now: Option<Timestamp>,
    /// The address the build is published at instead of `site.yaml`'s `base_url`
    /// (`https://pr-7.preview.example.com`): a preview's canonical, `hreflang`, sitemap, feed
    /// and card URLs name its own host, so it never competes with the site.
    pub base_url: Option<String>,
}

impl Publishing {
    /// A preview: drafts and what is not yet due, each with its banner (`--preview`, `sitegen
    /// dev`).
    pub fn preview() -> Self {
        Self {
            drafts: true,
            future: true,
            ..Self::default()
        }
    }

    /// Whether the build may show what is not published, and so asks search engines to index
    /// none of its pages.
    pub fn shows_unpublished(&self) -> bool {
        self.drafts || self.future
    }

    /// The time of the build: [`Publishing::now`], else [`NOW_ENV`], else the clock.
    pub fn time(&self) -> Result<Timestamp, String> {
        if let Some(now) = self.now {
            return Ok(now);
        }
        match std::env::var(NOW_ENV) {
            Ok(text) => text.parse::<Timestamp>().map_err(|err| {
                format!(
                    "{NOW_ENV}=`{text}` is not an RFC 3339 time such as 2026-12-09T07:00:00Z: {err}"
                )
            }),
            Err(_) => Ok(Timestamp::now()),
        }
    }
}

/// Where a piece stands at the build's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Live.
    Published,
    /// `draft: true`, whatever its dates say.
    Draft,
    /// Due at `publish_at`, which has not come yet.
    Scheduled(Timestamp),
    /// Withdrawn at `expires_at`, which has passed.
    Expired(Timestamp),
}

impl State {
    /// Whether a build with `publishing` shows a piece in this state.
    fn shown_by(self, publishing: &Publishing) -> bool {
        match self {
            State::Published => true,
            State::Draft => publishing.drafts,
            State::Scheduled(_) => publishing.future,
            State::Expired(_) => false,
        }
    }

    /// What the piece is, for a message: `a draft`, `scheduled for 2026-12-09T07:00:00Z`.
    fn describe(self) -> String {
        match self {
            State::Published => "published".to_owned(),
            State::Draft => "a draft".to_owned(),
            State::Scheduled(at) => format!("scheduled for {at}"),
            State::Expired(at) => format!("expired at {at}"),
        }
    }
}

/// The three fields as a piece writes them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Schedule<'a> {
    pub draft: bool,
    pub publish_at: Option<&'a str>,
    pub expires_at: Option<&'a str>,
}

impl<'a> From<&'a super::common::Meta> for Schedule<'a> {
    fn from(meta: &'a super::common::Meta) -> Self {
        Self {
            draft: meta.draft,
            publish_at: meta.publish_at.as_deref(),
            expires_at: meta.expires_at.as_deref(),
        }
    }
}

impl<'a> From<&'a super::articles::Article> for Schedule<'a> {
    fn from(article: &'a super::articles::Article) -> Self {
        Self {
            draft: article.draft,
            publish_at: article.publish_at.as_deref(),
            expires_at: article.expires_at.as_deref(),
        }
    }
}

/// A piece this build leaves out, with where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpublished {
    /// Its page.
    pub kind: RouteKind,
    /// The path it would have in this content's language.
    pub path: String,
    /// Its file, relative to the content directory (`articles/launch.md`).
    pub file: String,
    /// The field that decided, for a pointer into the file (`meta.expires_at`).
    pub field: String,
    /// Why it is left out.
    pub state: State,
}

impl Unpublished {
    /// Why a link to it is an error.
    pub(crate) fn link_problem(&self, href: &str) -> String {
        format!(
            "link `{href}` leads to {}, which is {} and not published by this build: remove the \
             link until it is published",
            self.file,
            self.state.describe()
        )
    }
}

/// A time as `publish_at` or `expires_at` may write it: RFC 3339 with its offset, or a date
/// alone, meaning 00:00 of that day in `zone`.
pub fn parse_time(text: &str, zone: Option<&TimeZone>) -> Result<Timestamp, String> {
    let is_date = text.len() == 10 && !text.contains(['T', 't', ' ']);
    if is_date {
        let date: jiff::civil::Date = text
            .parse()
            .map_err(|err| format!("`{text}` is not a date such as 2026-12-09: {err}"))?;
        let zone = zone.ok_or_else(|| {
            format!(
                "`{text}` is a date alone, which means 00:00 in site.yaml's `time_zone`; name \
                 one there (`time_zone: Europe/Tallinn`) or write the time with its offset \
                 (`{text}T09:00:00+02:00`)"
            )
        })?;
        return date
            .to_zoned(zone.clone())
            .map(|zoned| zoned.timestamp())
            .map_err(|err| format!("`{text}`: {err}"));
    }
    text.parse::<Timestamp>().map_err(|_| {
        format!(
            "`{text}` is neither an RFC 3339 time with its offset (`2026-12-09T09:00:00+02:00`) \
             nor a date (`2026-12-09`)"
        )
    })
}

/// The time zone `site.yaml` names, if any, or why it cannot be used.
pub(crate) fn time_zone(settings: &Settings) -> Result<Option<TimeZone>, String> {
    match &settings.time_zone {
        None => Ok(None),
        Some(name) => TimeZone::get(name).map(Some).map_err(|err| {
            format!("`{name}` is not a time zone of the IANA database (`Europe/Tallinn`): {err}")
        }),
    }
}

/// A piece's state at the build's time, with the times it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dated {
    state: State,
    publish_at: Option<Timestamp>,
    expires_at: Option<Timestamp>,
}

/// A mistake in a piece's fields: the field's name, and what is wrong.
type Mistake = (&'static str, String);

/// The state of a piece at `now`, or the mistake in its fields.
fn state_of(
    schedule: Schedule<'_>,
    now: Timestamp,
    zone: Option<&TimeZone>,
) -> Result<Dated, Mistake> {
    let publish_at = schedule
        .publish_at
        .map(|t| parse_time(t, zone))
        .transpose()
        .map_err(|m| ("publish_at", format!("publish_at {m}")))?;
    let expires_at = schedule
        .expires_at
        .map(|t| parse_time(t, zone))
        .transpose()
        .map_err(|m| ("expires_at", format!("expires_at {m}")))?;
    if let (Some(from), Some(to)) = (publish_at, expires_at)
        && to <= from
    {
        return Err((
            "expires_at",
            format!(
                "expires_at ({to}) is not after publish_at ({from}): the piece would never be published"
            ),
        ));
    }
    let state = match (publish_at, expires_at) {
        _ if schedule.draft => State::Draft,
        (Some(at), _) if at > now => State::Scheduled(at),
        (_, Some(at)) if at <= now => State::Expired(at),
        _ => State::Published,
    };
    Ok(Dated {
        state,
        publish_at,
        expires_at,
    })
}

/// A piece of the model that may be scheduled: its page, its file and where its fields are.
struct Piece<'a> {
    kind: RouteKind,
    file: String,
    /// The path of its fields in the file: `meta.` for a page, empty for an article's front
    /// matter.
    fields: String,
    schedule: Schedule<'a>,
}

/// Every piece of `content` that may carry a schedule. A sub-service follows its category's.
fn pieces(content: &Content) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    for page in FixedPage::ALL {
        pieces.push(Piece {
            kind: RouteKind::Fixed(*page),
            file: page.file(),
            fields: "meta.".into(),
            schedule: content.pages.meta(*page).into(),
        });
    }
    for category in &content.services {
        let file = format!("{}/{}.yaml", super::SERVICES_DIR, category.slug);
        pieces.push(Piece {
            kind: RouteKind::ServiceCategory {
                category: category.slug.clone(),
            },
            file: file.clone(),
            fields: "meta.".into(),
            schedule: (&category.meta).into(),
        });
        for (i, sub) in category.sub_services.iter().enumerate() {
            pieces.push(Piece {
                kind: RouteKind::SubService {
                    category: category.slug.clone(),
                    service: sub.slug.clone(),
                },
                file: file.clone(),
                fields: format!("sub_services[{i}].meta."),
                schedule: (&sub.meta).into(),
            });
        }
    }
    for article in &content.articles {
        pieces.push(Piece {
            kind: RouteKind::Article {
                slug: article.slug.clone(),
            },
            file: format!("{}/{}.md", super::articles::ARTICLES_DIR, article.slug),
            fields: String::new(),
            schedule: article.into(),
        });
    }
    pieces
}

/// What [`apply`] decided for one content.
#[derive(Debug, Default)]
pub(crate) struct Decided {
    /// The pieces left out.
    pub unpublished: Vec<Unpublished>,
    /// The pieces shown though not published, each with its state (for its banner).
    pub pending: HashMap<RouteKind, State>,
    /// The earliest `publish_at` or `expires_at` still to come.
    pub next_change_at: Option<Timestamp>,
}

/// Decides what `content` (before its routes are derived) shows at the build's time, and takes
/// the rest out of the model. `source` is what the default language's content decided, for a
/// translation: a piece left out there is left out in every language. A mistake in a time is
/// reported to `loader`, at the file the loader reads (a translation's own, where it has one).
pub(crate) fn apply(
    loader: &mut Loader,
    content: &mut Content,
    publishing: &Publishing,
    now: Timestamp,
    source: Option<&[Unpublished]>,
) -> Decided {
    let zone = match time_zone(&content.settings) {
        Ok(zone) => zone,
        Err(message) => {
            loader.error(super::SITE_FILE, Some("time_zone"), message);
            return Decided::default();
        }
    };
    let mut decided = Decided::default();
    let mut hidden: HashMap<RouteKind, State> = source
        .map(|s| s.iter().map(|u| (u.kind.clone(), u.state)).collect())
        .unwrap_or_default();
    let mut fields: HashMap<RouteKind, (String, String)> = HashMap::new();
    for piece in pieces(content) {
        let Dated {
            state,
            publish_at,
            expires_at,
        } = match state_of(piece.schedule, now, zone.as_ref()) {
            Ok(dated) => dated,
            Err((field, message)) => {
                let field = format!("{}{field}", piece.fields);
                let file = match loader.language() {
                    Some(tag) if loader.translated.contains(&piece.file) => {
                        super::translate::translation_file(&piece.file, tag)
                    }
                    _ => piece.file.clone(),
                };
                loader.error(&file, Some(&field), message);
                continue;
            }
        };
        if !piece.schedule.draft {
            let upcoming = [publish_at, expires_at].into_iter().flatten();
            if let Some(next) = upcoming.filter(|at| *at > now).min() {
                decided.next_change_at = Some(decided.next_change_at.map_or(next, |n| n.min(next)));
            }
        }
        // A piece left out in the source's language is left out here too.
        let state = match (state, hidden.get(&piece.kind)) {
            (State::Published, Some(source)) => *source,
            (own, _) => own,
        };
        let decisive = match state {
            State::Draft => "draft",
            State::Scheduled(_) => "publish_at",
            State::Expired(_) => "expires_at",
            State::Published => continue,
        };
        fields.insert(
            piece.kind.clone(),
            (piece.file.clone(), format!("{}{decisive}", piece.fields)),
        );
        if state.shown_by(publishing) {
            decided.pending.insert(piece.kind, state);
        } else {
            hidden.insert(piece.kind, state);
        }
    }
    // A sub-service is left out with its category.
    for category in &content.services {
        let kind = RouteKind::ServiceCategory {
            category: category.slug.clone(),
        };
        let Some(state) = hidden.get(&kind).copied() else {
            continue;
        };
        let field = fields.get(&kind).cloned();
        for sub in &category.sub_services {
            let sub_kind = RouteKind::SubService {
                category: category.slug.clone(),
                service: sub.slug.clone(),
            };
            hidden.entry(sub_kind.clone()).or_insert(state);
            if let Some(field) = &field {
                fields.entry(sub_kind).or_insert_with(|| field.clone());
            }
        }
    }
    if hidden.contains_key(&RouteKind::Fixed(FixedPage::Home)) {
        loader.error(
            &FixedPage::Home.file(),
            Some("meta"),
            "the home page is always published: remove `draft`, `publish_at` and `expires_at`"
                .into(),
        );
    }
    let prefix = content.settings.language_prefix(&content.settings.language);
    let local_slugs: HashMap<&str, &str> = content
        .articles
        .iter()
        .filter_map(|a| Some((a.slug.as_str(), a.local_slug.as_deref()?)))
        .collect();
    for (kind, state) in &hidden {
        // Only what this content has: a source's piece may have no translation.
        let Some((file, field)) = fields.get(kind).cloned() else {
            continue;
        };
        let path = match kind {
            RouteKind::Article { slug } if local_slugs.contains_key(slug.as_str()) => format!(
                "{prefix}{}/{}",
                FixedPage::Insights.path(),
                local_slugs[slug.as_str()]
            ),
            _ => format!("{prefix}{}", kind.path()),
        };
        decided.unpublished.push(Unpublished {
            kind: kind.clone(),
            path,
            file,
            field,
            state: *state,
        });
    }
    decided.unpublished.sort_by(|a, b| a.path.cmp(&b.path));
    drop(local_slugs);
    let gone = |kind: RouteKind| hidden.contains_key(&kind);
    content.articles.retain(|a| {
        !gone(RouteKind::Article {
            slug: a.slug.clone(),
        })
    });
    content.services.retain(|c| {
        !gone(RouteKind::ServiceCategory {
            category: c.slug.clone(),
        })
    });
    for category in &mut content.services {
        let slug = category.slug.clone();
        category.sub_services.retain(|s| {
            !gone(RouteKind::SubService {
                category: slug.clone(),
                service: s.slug.clone(),
            })
        });
    }
    decided
}

/// Answers the path of each page that expired with 410 Gone, as `gone` in `redirects.yaml`
/// does, unless an alias or an entry there already answers it: a link to it from elsewhere
/// meets a page that says it was withdrawn, and `sitegen deploy` may delete it.
pub(crate) fn answer_expired(
    loader: &Loader,
    redirects: &mut Vec<super::redirects::Redirect>,
    unpublished: &[Unpublished],
) {
    for piece in unpublished {
        if !matches!(piece.state, State::Expired(_))
            || redirects.iter().any(|r| r.from == piece.path)
        {
            continue;
        }
        let position = loader.position(&piece.file, &piece.field);
        redirects.push(super::redirects::Redirect {
            from: piece.path.clone(),
            to: super::redirects::Target::Gone,
            alias: false,
            at: super::ContentError {
                file: loader.root().join(&piece.file),
                line: position.map(|p| p.0),
                column: position.map(|p| p.1),
                message: String::new(),
            },
        });
    }
    redirects.sort_by(|a, b| a.from.cmp(&b.from));
}

/// Removes the routes of the pieces `decided` leaves out (the fixed pages, which stay in the
/// model), and gives each route shown though not published its banner, in the content's
/// language (`ui.draft`, `ui.scheduled` of `site.yaml`).
pub(crate) fn mark_routes(content: &mut Content, decided: &Decided) {
    let left_out: std::collections::HashSet<&RouteKind> =
        decided.unpublished.iter().map(|u| &u.kind).collect();
    content.routes.retain(|r| !left_out.contains(&r.kind));
    let zone = time_zone(&content.settings).ok().flatten();
    for route in &mut content.routes {
        // A listing of a category's articles stands or falls with the category.
        let kind = match &route.kind {
            RouteKind::InsightsCategory { category, .. } => RouteKind::ServiceCategory {
                category: category.clone(),
            },
            kind => kind.clone(),
        };
        if let Some(state) = decided.pending.get(&kind) {
            route.banner = Some(banner(&content.settings, *state, zone.as_ref()));
        }
    }
}

/// The words of the banner of a piece in `state`: `Draft`, `Scheduled for 9 December 2026,
/// 09:00`, in the settings' language and the site's time zone (UTC without one).
fn banner(settings: &Settings, state: State, zone: Option<&TimeZone>) -> String {
    match state {
        State::Scheduled(at) => {
            let zoned = at.to_zoned(zone.cloned().unwrap_or(TimeZone::UTC));
            let date = zoned.date().to_string();
            settings
                .ui
                .scheduled
                .replace(
                    "{date}",
                    &settings.dates.write(&date).unwrap_or(date.clone()),
                )
                .replace("{time}", &zoned.strftime("%H:%M").to_string())
        }
        _ => settings.ui.draft.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        text.parse().expect("a timestamp")
    }

    #[test]
    fn a_date_alone_is_midnight_in_the_site_s_time_zone() {
        let tallinn = TimeZone::get("Europe/Tallinn").expect("zoneinfo has Tallinn");
        // December: UTC+2; July: UTC+3 (summer time).
        assert_eq!(
            parse_time("2026-12-09", Some(&tallinn)),
            Ok(at("2026-12-08T22:00:00Z"))
        );
        assert_eq!(
            parse_time("2026-07-01", Some(&tallinn)),
            Ok(at("2026-06-30T21:00:00Z"))
        );
        assert!(
            parse_time("2026-12-09", None)
                .expect_err("no zone")
                .contains("time_zone")
        );
    }

    #[test]
    fn a_time_needs_its_offset() {
        assert_eq!(
            parse_time("2026-12-09T09:00:00+02:00", None),
            Ok(at("2026-12-09T07:00:00Z"))
        );
        assert!(parse_time("2026-12-09T09:00:00", None).is_err());
        assert!(parse_time("next tuesday", None).is_err());
    }

    #[test]
    fn a_draft_stays_a_draft_whatever_its_dates() {
        let now = at("2026-12-07T00:00:00Z");
        let schedule = |draft, publish_at, expires_at| Schedule {
            draft,
            publish_at,
            expires_at,
        };
        let state = |s| state_of(s, now, None).map(|dated| dated.state);
        assert_eq!(
            state(schedule(true, Some("2020-01-01T00:00:00Z"), None)),
            Ok(State::Draft)
        );
        assert_eq!(
            state(schedule(false, Some("2026-12-09T07:00:00Z"), None)),
            Ok(State::Scheduled(at("2026-12-09T07:00:00Z")))
        );
        assert_eq!(
            state(schedule(false, None, Some("2026-12-01T00:00:00Z"))),
            Ok(State::Expired(at("2026-12-01T00:00:00Z")))
        );
        assert_eq!(
            state(schedule(false, Some("2026-12-01T00:00:00Z"), None)),
            Ok(State::Published)
        );
        assert_eq!(
            state(schedule(
                false,
                Some("2026-12-09T00:00:00Z"),
                Some("2026-12-08T00:00:00Z")
            ))
            .map_err(|(field, _)| field),
            Err("expires_at")
        );
    }

    #[test]
    fn a_preview_shows_drafts_and_what_is_due_but_never_what_expired() {
        let preview = Publishing::preview();
        assert!(State::Draft.shown_by(&preview));
        assert!(State::Scheduled(Timestamp::UNIX_EPOCH).shown_by(&preview));
        assert!(!State::Expired(Timestamp::UNIX_EPOCH).shown_by(&preview));
        let production = Publishing::default();
        assert!(!State::Draft.shown_by(&production));
        assert!(!State::Scheduled(Timestamp::UNIX_EPOCH).shown_by(&production));
    }
}
