//! How far each language's translation has come (`sitegen i18n status`), and the record that
//! keeps it honest (`sitegen i18n mark`).
//!
//! A translation records what it was translated from: a comment, `# translated_from: DIGEST`,
//! the digest of its source file as it was when the translation was last brought up to date
//! (a comment, so that neither the model nor the schemas see it, and a file that is a list can
//! hold it too). A source changed
//! since then makes the translation stale; a translation without the record is stale too, as
//! nobody said which version of the source it follows. `mark` writes the record once a
//! translation has been checked against its source.
//!
//! Files are not all: a translation that leaves out some of its source's words is partial,
//! for a reader meets those in the source's language (the loader lays the translation over the
//! source). The report lists each missing field's path, and a partial file is not counted
//! translated.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use form_contract::translation::{is_translation, source_file, translation_file};

use super::articles::AUTHORS_FILE;
use super::{COUNTRIES_FILE, FORMS_FILE, FixedPage, SERVICES_DIR, SITE_FILE};

/// The kinds of content a report counts apart, as it prints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The words every page shares: `site.yaml`, `forms.yaml`, the countries, the authors.
    Site,
    /// The fixed pages and the service categories.
    Pages,
    /// The articles.
    Articles,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Site, Kind::Pages, Kind::Articles];

    fn name(self) -> &'static str {
        match self {
            Kind::Site => "site and forms",
            Kind::Pages => "pages",
            Kind::Articles => "articles",
        }
    }
}

/// Where a translation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// It exists, follows the source as it is now, and gives every one of its words.
    Translated,
    /// It follows the source as it is now but leaves out some of its words
    /// ([`Entry::missing`]), which readers meet in the source's language.
    Partial,
    /// It exists, but its source changed since (or it does not say what it follows).
    Stale,
    /// There is none.
    Missing,
}

/// One source file and its translation into one language.
#[derive(Debug, Clone)]
pub struct Entry {
    /// What the file is.
    pub kind: Kind,
    /// The source, relative to the content directory (`pages/about.yaml`).
    pub source: String,
    /// Its translation's name (`pages/about.et.yaml`).
    pub translation: String,
    pub state: State,
    /// The fields of the source with words the translation leaves out
    /// (`contact.office.name`); listed whatever the state, empty for a missing translation.
    pub missing: Vec<String>,
}

/// One language's translations.
#[derive(Debug, Clone)]
pub struct Language {
    pub tag: String,
    pub name: String,
    pub entries: Vec<Entry>,
}

impl Language {
    /// How many of `kind` (every kind for `None`) are in `state`.
    pub fn count(&self, kind: Option<Kind>, state: State) -> usize {
        self.entries
            .iter()
            .filter(|e| kind.is_none_or(|k| e.kind == k) && e.state == state)
            .count()
    }

    /// The share of the source files translated and up to date, in percent.
    pub fn coverage(&self) -> f64 {
        if self.entries.is_empty() {
            return 100.0;
        }
        let translated = self.count(None, State::Translated) as f64;
        translated * 100.0 / self.entries.len() as f64
    }
}

/// Every language but the default, with where each of its translations stands.
#[derive(Debug, Clone)]
pub struct Status {
    pub languages: Vec<Language>,
}

/// The lines a report lists at most for one kind and state; beyond them it gives the count.
const LISTED: usize = 12;

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.languages.is_empty() {
            return writeln!(f, "The site has one language: nothing to translate.");
        }
        for language in &self.languages {
            writeln!(
                f,
                "{} ({}): {:.1}% translated ({} of {} files), {} partial, {} stale, {} missing",
                language.tag,
                language.name,
                language.coverage(),
                language.count(None, State::Translated),
                language.entries.len(),
                language.count(None, State::Partial),
                language.count(None, State::Stale),
                language.count(None, State::Missing),
            )?;
            writeln!(
                f,
                "  {:<16}{:>11}{:>9}{:>7}{:>9}",
                "", "translated", "partial", "stale", "missing"
            )?;
            for kind in Kind::ALL {
                writeln!(
                    f,
                    "  {:<16}{:>11}{:>9}{:>7}{:>9}",
                    kind.name(),
                    language.count(Some(kind), State::Translated),
                    language.count(Some(kind), State::Partial),
                    language.count(Some(kind), State::Stale),
                    language.count(Some(kind), State::Missing),
                )?;
            }
            for (state, what) in [
                (
                    State::Partial,
                    "partial (these fields are shown in the source's language: translate them)",
                ),
                (
                    State::Stale,
                    "stale (its source changed since, or it does not record what it follows: \
                     bring it up to date, then `sitegen i18n mark` it)",
                ),
                (State::Missing, "missing"),
            ] {
                let files: Vec<&Entry> = language
                    .entries
                    .iter()
                    .filter(|e| e.state == state)
                    .collect();
                if files.is_empty() {
                    continue;
                }
                writeln!(f, "  {what}:")?;
                for entry in files.iter().take(LISTED) {
                    writeln!(f, "    content/{}", entry.translation)?;
                    if state == State::Partial {
                        for field in entry.missing.iter().take(LISTED) {
                            writeln!(f, "      {field}")?;
                        }
                        if entry.missing.len() > LISTED {
                            writeln!(f, "      ... and {} more", entry.missing.len() - LISTED)?;
                        }
                    }
                }
                if files.len() > LISTED {
                    writeln!(f, "    ... and {} more", files.len() - LISTED)?;
                }
            }
        }
        Ok(())
    }
}

/// The comment in which a translation records the digest of the source it follows.
const TRANSLATED_FROM: &str = "# translated_from:";

/// The digest a translation records of its source: enough of BLAKE3 to tell versions apart.
pub fn digest(source: &[u8]) -> String {
    blake3::hash(source).to_hex()[..16].to_owned()
}

/// Where every translation of the content in `content_dir` stands.
pub fn status(content_dir: &Path) -> anyhow::Result<Status> {
    let site = std::fs::read_to_string(content_dir.join(SITE_FILE))
        .with_context(|| format!("reading {}", content_dir.join(SITE_FILE).display()))?;
    #[derive(serde::Deserialize)]
    struct Site {
        languages: Vec<Tag>,
    }
    #[derive(serde::Deserialize)]
    struct Tag {
        tag: String,
        name: String,
    }
    let site: Site = serde_yaml::from_str(&site).context("reading the languages of site.yaml")?;
    let sources = sources(content_dir)?;
    let mut languages = Vec::new();
    for Tag { tag, name } in site.languages.into_iter().skip(1) {
        let mut entries = Vec::with_capacity(sources.len());
        for (kind, source) in &sources {
            let translation = translation_file(source, &tag);
            let (state, missing) = match std::fs::read_to_string(content_dir.join(&translation)) {
                Err(_) => (State::Missing, Vec::new()),
                Ok(text) => {
                    let bytes = std::fs::read(content_dir.join(source))
                        .with_context(|| format!("reading content/{source}"))?;
                    let missing = missing_words(source, &String::from_utf8_lossy(&bytes), &text)
                        .with_context(|| {
                            format!("comparing content/{translation} with its source")
                        })?;
                    let state = if recorded(&text).as_deref() != Some(digest(&bytes).as_str()) {
                        State::Stale
                    } else if !missing.is_empty() {
                        State::Partial
                    } else {
                        State::Translated
                    };
                    (state, missing)
                }
            };
            entries.push(Entry {
                kind: *kind,
                source: source.clone(),
                translation,
                state,
                missing,
            });
        }
        languages.push(Language { tag, name, entries });
    }
    Ok(Status { languages })
}

/// Fields whose values are not words to translate but names of things, addresses, dates and
/// settings (`slug`, `email`, `date`): a translation that leaves them out is not partial.
/// Added to the fields the loader already takes for no words ([`super::loader::NOT_WORDS`]).
const NOT_WORDS: &[&str] = &[
    "slug",
    "aliases",
    "src",
    "image",
    "share_image",
    "avatar",
    "author",
    "date",
    "category",
    "type",
    "geo",
    "opening_hours",
    "base_url",
    "contact_endpoint",
    "time_zone",
    "preview_domain",
    "preview_redirects_store",
    "cms",
    "publish_at",
    "expires_at",
    "languages",
    "cache",
    "brand",
    "version",
    "style",
    "id",
    "number",
    "year",
    "step",
    "download_count",
    "technologies",
    "logo",
];

/// Fields the same in every language, named by the end of their path with the list positions
/// left out (`team.people[2].name` ends with `people.name`): people's, products' and networks'
/// names, and the company's address and number (`site.yaml`'s `contact.email`; a form's
/// `fields.email` has words). The office's street, postal code and town are names too; its
/// country's name is words (`Eesti`).
const NAMES: &[&str] = &[
    "people.name",
    "logos.name",
    "social.name",
    "contact.email",
    "contact.phone",
    "address.street",
    "address.postal_code",
    "address.locality",
    "address.country_code",
];

/// The fields of `source` (its text, `rel` in the content directory) with words that the
/// translation `translated` leaves out, as paths (`contact.office.name`). An article's body is
/// translated whole; its front matter is compared. People's names (the authors') are theirs in
/// every language.
fn missing_words(rel: &str, source: &str, translated: &str) -> anyhow::Result<Vec<String>> {
    let document = |text: &str| -> anyhow::Result<super::yaml::Value> {
        let yaml = match rel.ends_with(".md") {
            true => front_matter(text).unwrap_or_default(),
            false => text,
        };
        super::yaml::value_from_str(yaml).map_err(|err| anyhow::anyhow!(err.message))
    };
    let (source, translated) = (document(source)?, document(translated)?);
    let people: &[&str] = if rel == AUTHORS_FILE { &["name"] } else { &[] };
    let not_words: Vec<&str> = (super::loader::NOT_WORDS.iter())
        .chain(NOT_WORDS)
        .chain(people)
        .copied()
        .collect();
    let Some(fields) = source.as_mapping() else {
        // A list (the countries): compare it whole, item by item.
        return Ok(list_missing(&source, &translated, &not_words));
    };
    Ok(fields
        .keys()
        .filter_map(|key| key.as_str())
        .filter(|key| !not_words.contains(key))
        .flat_map(|key| super::translate::untranslated(&source, &translated, key, &not_words))
        .filter(|path| !is_name(path))
        .collect())
}

/// Whether the field at `path` (its keys from the top of the file, list positions left out:
/// `team`, `people`, `name`) of the file `rel` may hold words to translate: what the browser
/// editor offers to translate, by the same lists as the count of missing words.
pub fn holds_words(rel: &str, path: &[&str]) -> bool {
    let people = rel == AUTHORS_FILE && path.last() == Some(&"name");
    !people
        && !path
            .iter()
            .any(|key| super::loader::NOT_WORDS.contains(key) || NOT_WORDS.contains(key))
        && !is_name(&path.join("."))
}

/// Whether the field at `path` is one of the [`NAMES`].
fn is_name(path: &str) -> bool {
    let mut plain = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => in_index = true,
            ']' => in_index = false,
            _ if !in_index => plain.push(c),
            _ => {}
        }
    }
    NAMES
        .iter()
        .any(|name| plain == *name || plain.ends_with(&format!(".{name}")))
}

/// [`missing_words`] of a document that is a list: the items' fields, as `[3].name`.
fn list_missing(
    source: &super::yaml::Value,
    translated: &super::yaml::Value,
    not_words: &[&str],
) -> Vec<String> {
    let wrap = |value: &super::yaml::Value| {
        let mut map = serde_yaml::Mapping::new();
        map.insert("items".into(), value.clone());
        super::yaml::Value::Mapping(map)
    };
    super::translate::untranslated(&wrap(source), &wrap(translated), "items", not_words)
        .into_iter()
        .map(|path| path.strip_prefix("items").unwrap_or(&path).to_owned())
        .collect()
}

/// The front matter of an article's text: the YAML between its first two `---` lines.
fn front_matter(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---")?;
    Some(&rest[..=end])
}

/// Every source file a language may translate, by kind, in a stable order.
fn sources(content_dir: &Path) -> anyhow::Result<Vec<(Kind, String)>> {
    let mut sources: Vec<(Kind, String)> = [SITE_FILE, FORMS_FILE, COUNTRIES_FILE, AUTHORS_FILE]
        .into_iter()
        .filter(|rel| content_dir.join(rel).is_file())
        .map(|rel| (Kind::Site, rel.to_owned()))
        .collect();
    sources.extend(FixedPage::ALL.iter().map(|page| (Kind::Pages, page.file())));
    for (dir, kind, ext) in [
        (SERVICES_DIR, Kind::Pages, "yaml"),
        (super::loader::ARTICLES_DIR, Kind::Articles, "md"),
    ] {
        let mut names: Vec<String> = match std::fs::read_dir(content_dir.join(dir)) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(&format!(".{ext}")) && !is_translation(n))
                .collect(),
            Err(_) => Vec::new(),
        };
        names.sort();
        sources.extend(names.into_iter().map(|n| (kind, format!("{dir}/{n}"))));
    }
    Ok(sources)
}

/// The digest a translation's text records, if it records one: anywhere in a YAML file, in an
/// article's front matter only.
fn recorded(text: &str) -> Option<String> {
    let key = TRANSLATED_FROM;
    let front_matter = text.starts_with("---\n");
    text.lines()
        .enumerate()
        .take_while(|(i, line)| !(front_matter && *i > 0 && *line == "---"))
        .find_map(|(_, line)| line.strip_prefix(key))
        .map(|value| value.trim().trim_matches(['"', '\'']).to_owned())
}

/// Records in the translation file `path` that it follows its source as the source is now.
/// Returns the source's path.
pub fn mark(path: &Path) -> anyhow::Result<PathBuf> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{} is not a file name", path.display()))?;
    if !is_translation(name) {
        bail!(
            "{} is not a translation: its name has no language before the extension \
             (`about.et.yaml`)",
            path.display()
        );
    }
    let ext = name.rsplit_once('.').map_or("", |(_, ext)| ext);
    let source = path.with_file_name(source_file(name));
    let bytes = std::fs::read(&source)
        .with_context(|| format!("reading its source {}", source.display()))?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let marked = recording(&text, ext, &bytes).with_context(|| {
        format!(
            "{} has no front matter (`---` on its first line)",
            path.display()
        )
    })?;
    let temporary = path.with_extension(format!("{ext}.marking"));
    std::fs::write(&temporary, marked)
        .and_then(|()| std::fs::rename(&temporary, path))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(source)
}

/// The translation `text` (a file with extension `ext`) recording that it follows the source
/// whose bytes are `source`: the record replaced, else added (first in an article's front
/// matter, after the comments at the top of a YAML file). `None` for an article without front
/// matter.
pub fn recording(text: &str, ext: &str, source: &[u8]) -> Option<String> {
    let line = format!("{TRANSLATED_FROM} {}", digest(source));
    let key = TRANSLATED_FROM;
    let marked = if text.lines().any(|l| l.starts_with(key)) {
        text.lines()
            .map(|l| if l.starts_with(key) { line.as_str() } else { l })
            .collect::<Vec<_>>()
            .join("\n")
            + if text.ends_with('\n') { "\n" } else { "" }
    } else if ext == "md" {
        let rest = text.strip_prefix("---\n")?;
        format!("---\n{line}\n{rest}")
    } else {
        // After the comments at the top (the schema line the editor reads).
        let head: usize = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| l.len() + 1)
            .sum();
        let head = head.min(text.len());
        format!("{}{line}\n{}", &text[..head], &text[head..])
    };
    Some(marked)
}

/// A coverage a language must reach (`--min et=100`).
#[derive(Debug, Clone, PartialEq)]
pub struct Minimum {
    pub tag: String,
    pub percent: f64,
}

impl std::str::FromStr for Minimum {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (tag, percent) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}`: write a language and a percentage, `et=100`"))?;
        let percent: f64 = percent
            .trim_end_matches('%')
            .parse()
            .ok()
            .filter(|p| (0.0..=100.0).contains(p))
            .ok_or_else(|| format!("`{percent}`: a percentage from 0 to 100"))?;
        Ok(Minimum {
            tag: tag.to_owned(),
            percent,
        })
    }
}

impl Status {
    /// What falls short of `minimums`, one line each; a minimum for a language the site does
    /// not translate into is a mistake too.
    pub fn shortfalls(&self, minimums: &[Minimum]) -> Vec<String> {
        minimums
            .iter()
            .filter_map(
                |min| match self.languages.iter().find(|l| l.tag == min.tag) {
                    None => Some(format!(
                        "{}: not a language the site is translated into",
                        min.tag
                    )),
                    Some(language) if language.coverage() < min.percent => Some(format!(
                        "{}: {:.1}% translated, below the {}% asked",
                        min.tag,
                        language.coverage(),
                        min.percent
                    )),
                    Some(_) => None,
                },
            )
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
        std::fs::write(path, text).expect("written");
    }

    #[test]
    fn translations_are_translated_stale_or_missing_and_mark_brings_one_up_to_date() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        write(
            root,
            "site.yaml",
            "languages:\n  - { tag: en, name: English }\n  - { tag: et, name: Eesti }\n",
        );
        write(
            root,
            "site.et.yaml",
            "# yaml-language-server: $schema=x\nbrand: { name: N }\n",
        );
        write(root, "articles/a.md", "---\ntitle: A\n---\nBody\n");
        write(root, "articles/a.et.md", "---\ntitle: Ä\n---\nKeha\n");
        write(root, "articles/b.md", "---\ntitle: B\n---\nBody\n");
        let state = |status: &Status, rel: &str| {
            status.languages[0]
                .entries
                .iter()
                .find(|e| e.source == rel)
                .map(|e| e.state)
        };
        let before = status(root).expect("reads");
        assert_eq!(state(&before, "site.yaml"), Some(State::Stale), "no record");
        assert_eq!(state(&before, "articles/a.md"), Some(State::Stale));
        assert_eq!(state(&before, "articles/b.md"), Some(State::Missing));
        assert_eq!(state(&before, "pages/about.yaml"), Some(State::Missing));

        mark(&root.join("site.et.yaml")).expect("marks");
        mark(&root.join("articles/a.et.md")).expect("marks");
        let marked = std::fs::read_to_string(root.join("site.et.yaml")).expect("reads");
        assert!(
            marked.starts_with("# yaml-language-server: $schema=x\n# translated_from: "),
            "{marked}"
        );
        let after = status(root).expect("reads");
        assert_eq!(state(&after, "site.yaml"), Some(State::Translated));
        assert_eq!(state(&after, "articles/a.md"), Some(State::Translated));
        let again = std::fs::read_to_string(root.join("articles/a.et.md")).expect("reads");
        mark(&root.join("articles/a.et.md")).expect("marks again");
        assert_eq!(
            std::fs::read_to_string(root.join("articles/a.et.md")).expect("reads"),
            again,
            "marking twice changes nothing"
        );

        // The source changes: the translation is stale until marked again.
        write(root, "articles/a.md", "---\ntitle: A, revised\n---\nBody\n");
        let changed = status(root).expect("reads");
        assert_eq!(state(&changed, "articles/a.md"), Some(State::Stale));
        let language = &changed.languages[0];
        assert!(language.coverage() < 100.0);
        let min = |text: &str| text.parse::<Minimum>().expect("parses");
        assert_eq!(changed.shortfalls(&[min("et=0")]), Vec::<String>::new());
        assert_eq!(changed.shortfalls(&[min("et=100")]).len(), 1);
        assert_eq!(changed.shortfalls(&[min("fr=10")]).len(), 1);
        assert!("et=101".parse::<Minimum>().is_err());
        assert!("et".parse::<Minimum>().is_err());
        let printed = changed.to_string();
        assert!(printed.contains("content/articles/a.et.md"), "{printed}");
        assert!(printed.contains("content/articles/b.et.md"), "{printed}");
    }
}
