//! Site-wide settings from `content/site.yaml`: brand, contact details, navigation, footer.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::common::{Icon, Link, Meta};

/// Everything every page shares.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The company's names.
    pub brand: Brand,
    /// Absolute URL the site is published at, without a trailing slash.
    pub base_url: String,
    /// The languages the site is published in, the default first: its pages keep the
    /// unprefixed URLs (`/about`), every other language's are under its tag (`/et/about`).
    pub languages: Vec<Language>,
    /// The BCP 47 tag of the language of this content's pages (`en`): one of `languages`, set
    /// by the loader, never written.
    #[serde(default)]
    #[schemars(skip)]
    pub language: String,
    /// The IANA time zone of the site's calendar (`Europe/Tallinn`): a `publish_at` or
    /// `expires_at` written as a date alone means 00:00 of that day here, and a banner's
    /// `Scheduled for` time is written in it. Without it such dates are refused.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub time_zone: Option<String>,
    /// The domain whose subdomains serve the previews `sitegen deploy --preview NAME` uploads
    /// under `previews/NAME/` (`preview.example.com`: `pr-42.preview.example.com`), for the
    /// CloudFront Function the build writes. Leave out for a site without previews.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub preview_domain: Option<String>,
    /// The ARN of the CloudFront KeyValueStore that holds each preview's own redirects
    /// (`arn:aws:cloudfront::123456789012:key-value-store/...`): `sitegen deploy --preview NAME`
    /// writes them there and `--remove-preview NAME` removes them, and the CloudFront Function
    /// the build writes reads it on preview hosts (associate the store with the function).
    /// Without it a preview's old paths answer only with the page left at each of them.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub preview_redirects_store: Option<String>,
    /// The browser editor on the live site: with it, `sitegen build` publishes `/admin/`, where
    /// the people who write the site edit it through GitHub, each change a pull request. Leave
    /// out for a site edited only in files (`sitegen dev` has `/admin/` either way).
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub cms: Option<Cms>,
    /// Whether every page asks search engines not to index it: set by a build that shows what
    /// is not published (`--drafts`, `--future`, `--preview`, `sitegen dev`), never written.
    #[serde(default)]
    #[schemars(skip)]
    pub noindex: bool,
    /// Base URL of the contact service (`contact-fn`) the forms post to.
    /// The `SITEGEN_CONTACT_ENDPOINT` environment variable overrides it at build time.
    pub contact_endpoint: String,
    /// How visitors reach the company.
    pub contact: ContactDetails,
    /// The fixed navigation bar.
    pub nav: Navigation,
    /// The footer under every page.
    pub footer: Footer,
    /// The page shown for unknown paths (`404.html`).
    pub not_found: NotFound,
    /// Words of the interface that belong to no page.
    pub ui: UiStrings,
    /// How the pages write a date (an article's): the language's month names and order.
    pub dates: DateFormat,
    /// The page left at each old path of a moved page (see `redirects.yaml` and `aliases`),
    /// for hosts that answer no redirect: it sends the visitor on at once.
    #[serde(skip_serializing)]
    #[ts(skip)]
    pub moved: MovedPage,
    /// How long browsers and the CDN keep each kind of file: written into `_headers` and onto
    /// every object `sitegen deploy` uploads. Leave out for the defaults.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub cache: CacheRules,
}

/// The repository the editor of the live site (`/admin/`) edits through GitHub's API.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cms {
    /// The GitHub repository of this site, `owner/name` (`acme/website`).
    pub repo: String,
    /// The branch the site is published from, which the editor's pull requests target
    /// (`main`).
    pub branch: String,
    /// The address of the OAuth proxy that signs editors in to GitHub
    /// (`https://cms-auth.example.com`): GitHub gives a browser no token without a server that
    /// holds the OAuth app's secret. Leave out for Netlify's (`https://api.netlify.com`), which
    /// serves sites hosted there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The proxy's path that starts the sign-in (`auth`, the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_endpoint: Option<String>,
}

/// The `Cache-Control` value of each kind of file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CacheRules {
    /// Files whose names carry a hash of their content (`/assets/`, the search index): a
    /// changed file gets a new URL, so they are kept without asking again.
    pub hashed: String,
    /// Pages, the feed, the sitemap, pictures and every other file that keeps its URL across
    /// builds: asked for again on every visit (an unchanged file costs a 304).
    pub revalidated: String,
}

impl Default for CacheRules {
    fn default() -> Self {
        Self {
            hashed: "public, max-age=31536000, immutable".to_owned(),
            revalidated: "public, max-age=0, must-revalidate".to_owned(),
        }
    }
}

/// A language the site is published in.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// BCP 47 tag (`en`, `et`, `pt-BR`): `<html lang>`, `hreflang`, and the folder of its pages.
    pub tag: String,
    /// The language's name in itself (`Eesti`), as the language switcher shows it.
    pub name: String,
    /// Which way its text runs.
    #[serde(default)]
    pub direction: Direction,
    /// Letters its readers often type as others, which the search matches as those: each
    /// letter and the one it is typed as (Estonian `{ õ: o, ä: a, ö: o, ü: u, š: s, ž: z }`).
    #[serde(default)]
    pub search_folds: std::collections::BTreeMap<String, String>,
    /// The dialling code the contact form's country list starts on in this language's pages
    /// (`+372` for Estonian): one of `countries.yaml`'s codes. Without it the list starts on
    /// its first country.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub country_code: Option<String>,
    /// The dialling code the home page's enquiry form shows before its phone field, where it is
    /// not [`Language::country_code`] (English: `+1`, while the contact form starts on `+49`).
    /// One of `countries.yaml`'s codes. Without it the field shows `country_code`, and nothing
    /// without either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub phone_prefix: Option<String>,
}

impl Language {
    /// [`Language::search_folds`] as pairs of letters; an entry that is not one letter for
    /// one letter is left out (and reported by the validation).
    pub fn search_fold(&self) -> Vec<(char, char)> {
        self.search_folds
            .iter()
            .filter_map(|(from, to)| Some((single(from)?, single(to)?)))
            .collect()
    }
}

/// The one character of `text`, if it has exactly one.
fn single(text: &str) -> Option<char> {
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// Which way a language's text runs: `<html dir>`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, TS, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Left to right (`ltr`).
    #[default]
    Ltr,
    /// Right to left (`rtl`).
    Rtl,
}

impl Settings {
    /// The language of this content's pages.
    pub fn current_language(&self) -> Option<&Language> {
        self.languages.iter().find(|l| l.tag == self.language)
    }

    /// The folder of `tag`'s pages: empty for the default language, `/et` for another.
    pub fn language_prefix(&self, tag: &str) -> String {
        let default = self.languages.first().map_or("", |l| l.tag.as_str());
        form_contract::language_prefix(default, tag)
    }
}

/// How a language writes a date.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DateFormat {
    /// The twelve months' names, January first, as they are written in a date.
    pub months: Vec<String>,
    /// A date, with `{day}`, `{month}` and `{year}` in the language's order:
    /// `{month} {day}, {year}` (March 14, 2024), `{day}. {month} {year}` (14. märts 2024).
    pub format: String,
    /// How the contact page writes `contact.opening_hours`, the hours search engines read.
    pub hours: HoursFormat,
}

/// How a language writes opening hours (`Monday to Friday, 9:00 to 18:00`): the words around
/// `contact.opening_hours`, so the hours are stated once and read the same everywhere.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HoursFormat {
    /// The seven days' names, Monday first, as they stand in a run of days (`esmaspäev`).
    pub days: Vec<String>,
    /// Three or more days in a row, as `{first}` and `{last}`: `{first} to {last}`,
    /// `{first}–{last}`. Fewer are listed by name.
    pub day_range: String,
    /// A clock time, as `{hour}` (no leading zero) and `{minute}`: `{hour}:{minute}` (9:00),
    /// `{hour}.{minute}` (9.00).
    pub time: String,
    /// One entry of days with their hours, as `{days}`, `{opens}` and `{closes}`:
    /// `{days}, {opens} to {closes}`. Several entries are joined by `; `.
    pub format: String,
}

impl HoursFormat {
    /// Every mistake in these words, as (field path under `dates.hours`, message).
    pub(crate) fn problems(&self) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        if self.days.len() != 7 {
            problems.push((
                "days".into(),
                format!(
                    "name the seven days, Monday first; found {}",
                    self.days.len()
                ),
            ));
        }
        let templates: [(&str, &String, &[&str]); 3] = [
            ("day_range", &self.day_range, &["{first}", "{last}"]),
            ("time", &self.time, &["{hour}", "{minute}"]),
            ("format", &self.format, &["{days}", "{opens}", "{closes}"]),
        ];
        for (field, text, placeholders) in templates {
            for placeholder in placeholders.iter().filter(|p| !text.contains(**p)) {
                problems.push((
                    field.into(),
                    format!(
                        "`{text}` has no `{placeholder}`: a template of {} writes each",
                        placeholders.join(", ")
                    ),
                ));
            }
        }
        problems
    }
}

impl DateFormat {
    /// The ISO date `iso` (`2024-03-14`) written this way, or why it cannot be.
    pub fn write(&self, iso: &str) -> Result<String, String> {
        let (year, month, day) = super::articles::parse_date(iso)?;
        let name = self
            .months
            .get(month - 1)
            .ok_or_else(|| format!("`dates.months` has no name for month {month}"))?;
        Ok(self
            .format
            .replace("{day}", &day.to_string())
            .replace("{month}", name)
            .replace("{year}", &year.to_string()))
    }
}

/// The company's names.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Brand {
    /// Short name, shown in the logo and titles.
    pub name: String,
    /// Registered name, shown in the copyright line and legal pages.
    pub legal_name: String,
}

/// Email, phone and office.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactDetails {
    /// General enquiries address.
    pub email: String,
    /// Phone number as displayed, in international form.
    pub phone: String,
    /// The office visitors can visit.
    pub office: Office,
    /// Where the office is on a map: the `geo` of the structured data search engines read for
    /// local results (`ProfessionalService`). Leave out where it has no office to visit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub geo: Option<Geo>,
    /// When the company answers, as the structured data's `openingHoursSpecification`; each
    /// entry a set of days with the same hours. Empty (the default) for none stated.
    #[serde(default)]
    pub opening_hours: Vec<OpeningHours>,
}

/// A point on the map, in WGS 84 degrees (what schema.org's `GeoCoordinates` means).
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Geo {
    /// Degrees north of the equator, -90 to 90 (Tallinn `59.437`).
    pub latitude: f64,
    /// Degrees east of Greenwich, -180 to 180 (Tallinn `24.7536`).
    pub longitude: f64,
}

/// Days sharing the same hours: `{ days: [Monday, Friday], opens: "09:00", closes: "18:00" }`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpeningHours {
    /// The days, by their English names as schema.org spells them (`Monday`).
    pub days: Vec<Weekday>,
    /// Opening time, 24-hour `HH:MM`, in the office's local time.
    pub opens: String,
    /// Closing time, 24-hour `HH:MM`, later than `opens`.
    pub closes: String,
}

/// A day of the week, as schema.org's `DayOfWeek` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, TS, JsonSchema)]
pub enum Weekday {
    /// `Monday`.
    Monday,
    /// `Tuesday`.
    Tuesday,
    /// `Wednesday`.
    Wednesday,
    /// `Thursday`.
    Thursday,
    /// `Friday`.
    Friday,
    /// `Saturday`.
    Saturday,
    /// `Sunday`.
    Sunday,
}

impl ContactDetails {
    /// Every mistake in the office's address, `geo` and `opening_hours`, as (field path under
    /// `contact`, message).
    pub(crate) fn problems(&self) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        let address = &self.office.address;
        for (field, text) in [
            ("street", &address.street),
            ("postal_code", &address.postal_code),
            ("locality", &address.locality),
            ("country", &address.country),
        ] {
            if text.trim().is_empty() {
                problems.push((
                    format!("office.address.{field}"),
                    "is empty: the address is written from its parts; give each".into(),
                ));
            }
        }
        let code = &address.country_code;
        if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
            problems.push((
                "office.address.country_code".into(),
                format!("`{code}` is not a country code: write its two capital letters of ISO 3166-1 (`EE`)"),
            ));
        }
        if let Some(geo) = &self.geo {
            if !(-90.0..=90.0).contains(&geo.latitude) {
                problems.push((
                    "geo.latitude".into(),
                    format!(
                        "{} is not a latitude: write degrees from -90 to 90",
                        geo.latitude
                    ),
                ));
            }
            if !(-180.0..=180.0).contains(&geo.longitude) {
                problems.push((
                    "geo.longitude".into(),
                    format!(
                        "{} is not a longitude: write degrees from -180 to 180",
                        geo.longitude
                    ),
                ));
            }
        }
        for (i, hours) in self.opening_hours.iter().enumerate() {
            let at = |field: &str| format!("opening_hours[{i}].{field}");
            if hours.days.is_empty() {
                problems.push((
                    at("days"),
                    "name at least one day (`[Monday, Friday]`)".into(),
                ));
            }
            let opens = clock_minutes(&hours.opens);
            let closes = clock_minutes(&hours.closes);
            for (field, text, minutes) in [
                ("opens", &hours.opens, opens),
                ("closes", &hours.closes, closes),
            ] {
                if minutes.is_none() {
                    problems.push((
                        at(field),
                        format!("`{text}` is not a time: write 24-hour `HH:MM` (`09:00`)"),
                    ));
                }
            }
            if let (Some(opens), Some(closes)) = (opens, closes)
                && closes <= opens
            {
                problems.push((
                    at("closes"),
                    format!(
                        "`{}` is not after `opens` (`{}`)",
                        hours.closes, hours.opens
                    ),
                ));
            }
        }
        problems
    }
}

/// Minutes since midnight of a 24-hour `HH:MM` time, or `None` when it is not one.
fn clock_minutes(text: &str) -> Option<u32> {
    let (hours, minutes) = text.split_once(':')?;
    if hours.len() != 2 || minutes.len() != 2 {
        return None;
    }
    let (hours, minutes): (u32, u32) = (hours.parse().ok()?, minutes.parse().ok()?);
    (hours < 24 && minutes < 60).then_some(hours * 60 + minutes)
}

/// The office visitors can visit.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Office {
    /// Heading of the address card (`Tallinn office`).
    pub name: String,
    /// Where it is, in parts: the contact page's address lines and the structured data's
    /// `PostalAddress` are both written from them.
    pub address: PostalAddress,
}

/// A postal address in the parts search engines read (schema.org's `PostalAddress`). The
/// contact page writes it as a letter to the office is addressed: the street, then the postal
/// code and the town, then the country.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PostalAddress {
    /// Street and number (`Narva mnt 7`): `streetAddress`.
    pub street: String,
    /// Postal code (`10117`): `postalCode`.
    pub postal_code: String,
    /// Town or city (`Tallinn`): `addressLocality`.
    pub locality: String,
    /// The country's ISO 3166-1 alpha-2 code (`EE`): `addressCountry`.
    pub country_code: String,
    /// The country's name in the page's language (`Estonia`, `Eesti`): the address's last line.
    pub country: String,
}

/// The fixed navigation bar.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Navigation {
    /// Accessible name of the logo link to the home page.
    pub home_label: String,
    /// The Services dropdown.
    pub services: ServicesMenu,
    /// Desktop links after the dropdown, in order.
    pub links: Vec<Link>,
    /// The call-to-action button at the end of the bar.
    pub cta: Link,
    /// Links of the mobile menu, in order.
    pub mobile_links: Vec<Link>,
}

/// The Services dropdown of the navigation bar.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServicesMenu {
    /// Text of the button that opens it.
    pub label: String,
    /// One link per service category, in the categories' order: made from `content/services/`,
    /// never written here.
    #[serde(default)]
    #[schemars(skip)]
    pub links: Vec<Link>,
    /// The last entry, to the services overview.
    pub view_all: Link,
}

/// The footer under every page.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Footer {
    /// The paragraph under the logo.
    pub description: String,
    /// Link columns, in order.
    pub columns: Vec<FooterColumn>,
    /// Accessible name of the social profiles list.
    pub social_label: String,
    /// Social profiles, shown as icons.
    pub social: Vec<SocialLink>,
    /// The copyright line.
    pub copyright: String,
}

/// One titled column of footer links.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FooterColumn {
    /// Column heading.
    pub title: String,
    /// Links, in order. Leave out when `links_from` names where they come from.
    #[serde(default)]
    pub links: Vec<Link>,
    /// Links made from the model instead of written here: `service-categories` lists one link
    /// per service category, in their order.
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub links_from: Option<LinkSource>,
}

/// A list of links the model makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LinkSource {
    /// One link per service category, in their order, labelled with the category's name.
    ServiceCategories,
}

/// A social profile. Profiles have no address yet, so they render as labelled icons, not links.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SocialLink {
    /// Network name, used as the accessible name.
    pub name: String,
    /// The network's mark.
    pub icon: Icon,
}

/// The not-found page.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotFound {
    /// Title and description of `404.html`.
    pub meta: Meta,
    /// The large status code (`404`).
    pub code: String,
    /// The heading.
    pub title: String,
    /// A sentence under the heading.
    pub lead: String,
    /// The way back.
    pub home_link: Link,
    /// Heading above the suggested pages (`Popular pages`).
    pub suggestions_title: String,
    /// Pages to try instead, in order.
    pub suggestions: Vec<Link>,
}

/// The words of the page at an old path (`/old/index.html`), which forwards to the new one.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovedPage {
    /// Its `<title>` and heading (`This page has moved`).
    pub title: String,
    /// The sentence before the link (`It is now at`).
    pub lead: String,
    /// The link's words when it leads to another site (`its new address`); a link on this
    /// site shows its path.
    pub external_link: String,
}

/// Interface words that belong to no single page.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UiStrings {
    /// The skip link at the top of every page.
    pub skip_to_content: String,
    /// Accessible name of the hamburger button while the menu is closed.
    pub open_menu: String,
    /// Accessible name of the hamburger button while the menu is open.
    pub close_menu: String,
    /// Accessible name of the main navigation landmark.
    pub main_nav_label: String,
    /// Accessible name of the mobile navigation landmark.
    pub mobile_nav_label: String,
    /// Accessible name of the footer navigation landmark.
    pub footer_nav_label: String,
    /// Accessible name of the region where toasts (such as "Message Sent!") appear.
    pub notifications_label: String,
    /// Accessible name of the language switcher in the header.
    pub languages_label: String,
    /// What the language switcher says of a language the page is not translated into.
    pub not_translated: String,
    /// The banner of a draft shown by a preview build or `sitegen dev` (`Draft`).
    pub draft: String,
    /// The banner of a page not yet due, with `{date}` (written as `dates` says) and `{time}`
    /// (`09:00`, in `time_zone`): `Scheduled for {date}, {time}`.
    pub scheduled: String,
}
