//! What each page read of the content when its inputs were hashed, so that a build asks the
//! workers to hash again only the pages whose reads changed.
//!
//! Hashing what every page renders ([`super`]) is most of a one-article rebuild at thousands of
//! articles, yet an article's edit changes what a handful of pages read. So while a worker hashes
//! a page, it notes what the page's data read of the content (`site/render/reads.ts`), by keys
//! that [`SCHEME`], which the worker receives with the content, lays out:
//!
//! - a top-level field of the content JSON (`settings`, `pages`, `images`, ...), read whole;
//! - for a list of entries (`articles`, `routes`), the list's name for the list as such: its
//!   order, and each entry's fields the site indexes the list by (an article's `slug` and
//!   `category`, a route's `path`, `kind` and `params`); and `<list>/<id>` for the rest of one
//!   entry (`articles/<slug>`, `routes/<path>`);
//! - for what stands for an entry elsewhere, in the order of its list (an article's body, by
//!   its digest in `article_bodies`), `<field>/<id>` with the entry's id
//!   (`article_bodies/<slug>`): a page that lists an article reads its entry, not its body, and
//!   stays known when only the body changes;
//! - for a map (`cards`), `<map>/<key>` for one entry, and the map's name when a page lists it;
//! - `*`: the whole content.
//!
//! The build keeps, per bundle, each page's hash with its reads and a seal: a hash of what each
//! read key holds in the content it was hashed from ([`Digests`]). A page whose seal holds for
//! the new content has the same hash as before, and is not hashed again. A record is checked
//! before it is used, so a record left by any earlier build, even one of other content, can at
//! worst be of no use.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::cache::{self, Cache};

/// Changes whenever what a key names, or how a record is kept, changes.
const FORMAT: &str = "sitegen-reads-3";

/// The key of a read of the whole content.
const WHOLE: &str = "*";

/// How the content's reads are named: sent to the render workers with the content, so this is
/// the one place that says it.
#[derive(Debug, Serialize)]
pub struct Scheme {
    /// Lists whose entries are read one by one.
    lists: &'static [List],
    /// Maps whose entries are read one by one.
    maps: &'static [&'static str],
    /// Arrays in the order of a list, each item part of that list's entry.
    by_place: &'static [ByPlace],
}

/// A list of entries, each named by its `id` field; reading one of its `shape` fields is a
/// read of the list.
#[derive(Debug, Serialize)]
struct List {
    field: &'static str,
    id: &'static str,
    shape: &'static [&'static str],
}

/// `field.array[i]`, what stands for entry `i` of `list` elsewhere, read as `<field>/<id>` with
/// that entry's id. The rest of `field` is where the build put things, not content: it is read
/// without a note.
#[derive(Debug, Serialize)]
struct ByPlace {
    field: &'static str,
    array: &'static str,
    list: &'static str,
}

/// The scheme of the content's reads.
pub const SCHEME: Scheme = Scheme {
    lists: &[
        List {
            field: "articles",
            id: "slug",
            shape: &["slug", "category"],
        },
        List {
            field: "routes",
            id: "path",
            shape: &["path", "kind", "params"],
        },
    ],
    maps: &["cards"],
    by_place: &[ByPlace {
        field: "article_bodies",
        array: "digests",
        list: "articles",
    }],
};

/// What each key holds in one content, as a hash.
#[derive(Debug)]
pub struct Digests {
    by_key: HashMap<String, String>,
}

impl Digests {
    /// The digests of the content JSON in `file`, whose hash is `whole`.
    pub fn of_file(file: &Path, whole: &str) -> Result<Self> {
        let json = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        Self::of(&json, whole).with_context(|| format!("reading {}", file.display()))
    }

    /// The digests of the content JSON `json`, whose hash is `whole`.
    pub fn of(json: &[u8], whole: &str) -> Result<Self> {
        let fields: HashMap<String, &RawValue> = serde_json::from_slice(json)?;
        let by_parts = |field: &str| {
            SCHEME.lists.iter().any(|list| list.field == field)
                || SCHEME.maps.contains(&field)
                || SCHEME.by_place.iter().any(|by| by.field == field)
        };
        let mut by_key: HashMap<String, String> = fields
            .iter()
            .filter(|(field, _)| !by_parts(field))
            .map(|(field, raw)| (field.clone(), digest(raw)))
            .collect();
        by_key.insert(WHOLE.into(), whole.into());

        for &map in SCHEME.maps {
            let Some(raw) = fields.get(map) else { continue };
            by_key.insert(map.into(), digest(raw));
            let entries: HashMap<String, &RawValue> = serde_json::from_str(raw.get())?;
            by_key.extend(
                entries
                    .into_iter()
                    .map(|(key, raw)| (part_key(map, &key), digest(raw))),
            );
        }

        for list in SCHEME.lists {
            let Some(raw) = fields.get(list.field) else {
                continue;
            };
            let entries: Vec<&RawValue> = serde_json::from_str(raw.get())?;
            let each: Vec<(String, Vec<&str>, String)> = entries
                .par_iter()
                .map(|raw| {
                    let entry: HashMap<&str, &RawValue> = serde_json::from_str(raw.get())?;
                    let id: String = match entry.get(list.id) {
                        Some(id) => serde_json::from_str(id.get())?,
                        None => anyhow::bail!("an entry of {} has no {}", list.field, list.id),
                    };
                    let shape = list
                        .shape
                        .iter()
                        .map(|field| entry.get(field).map_or("-", |raw| raw.get()))
                        .collect();
                    Ok((id, shape, digest(raw)))
                })
                .collect::<Result<_>>()?;
            // What stands for each entry elsewhere, in the order of the list, under the
            // entry's id.
            for by in SCHEME.by_place.iter().filter(|by| by.list == list.field) {
                let Some(raw) = fields.get(by.field).filter(|raw| raw.get() != "null") else {
                    continue;
                };
                let parts: HashMap<&str, &RawValue> = serde_json::from_str(raw.get())?;
                let Some(array) = parts.get(by.array) else {
                    continue;
                };
                let items: Vec<&RawValue> = serde_json::from_str(array.get())?;
                by_key.extend(
                    each.iter()
                        .zip(items)
                        .map(|((id, _, _), item)| (part_key(by.field, id), digest(item))),
                );
            }
            let shape: Vec<&[u8]> = each
                .iter()
                .flat_map(|(_, shape, _)| shape.iter().map(|field| field.as_bytes()))
                .collect();
            by_key.insert(list.field.into(), cache::hash_hex(&shape));
            by_key.extend(
                each.iter()
                    .map(|(id, _, digest)| (part_key(list.field, id), digest.clone())),
            );
        }
        Ok(Self { by_key })
    }

    /// The hash of what `reads` hold: equal for two contents exactly when each key holds the
    /// same in both. A key the content does not have holds nothing, which is not a hash.
    fn seal<'a>(&self, reads: impl IntoIterator<Item = &'a str>) -> String {
        let parts: Vec<&[u8]> = reads
            .into_iter()
            .flat_map(|key| {
                let held = self.by_key.get(key).map_or("-", String::as_str);
                [key.as_bytes(), held.as_bytes()]
            })
            .collect();
        cache::hash_hex(&parts)
    }
}

/// The key of one part of `field` (an entry of a list or a map, or what stands for an entry
/// elsewhere): `<field>/<id>`, as `site/render/reads.ts` notes it.
fn part_key(field: &str, id: &str) -> String {
    format!("{field}/{id}")
}

fn digest(raw: &RawValue) -> String {
    cache::hash_hex(&[raw.get().as_bytes()])
}

/// What a page renders besides the bundle, hashed, and what the hash read of the content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageInputs {
    /// The hash of the page's inputs (`inputsHash` in `site/render/entry.server.ts`).
    pub hash: String,
    /// The keys it read, sorted.
    pub reads: Vec<String>,
}

/// How many versions of a page's inputs are kept: the newest, and the ones before it that
/// held for other contents. Going back to a content built before (the settings edited and
/// put back, another branch checked out) then finds the pages as they were.
const VERSIONS: usize = 3;

/// The pages' inputs as the builds of one bundle found them.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Records {
    /// Every key read, once; the versions name them by their place here.
    keys: Vec<String>,
    pages: Vec<Record>,
}

/// A page's inputs, newest first.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    path: String,
    versions: Vec<Version>,
}

/// A page's inputs in one content: the hash, what it read, and the seal of what that held.
#[derive(Debug, Serialize, Deserialize)]
struct Version {
    hash: String,
    reads: Vec<u32>,
    seal: String,
}

impl Records {
    /// Where the records of the bundle `bundle_hash` are kept in the cache's memo.
    pub fn key(bundle_hash: &str) -> String {
        cache::hash_hex(&[FORMAT.as_bytes(), bundle_hash.as_bytes()])
    }

    /// The records kept under `key`; none when there are none or they cannot be read.
    pub fn recall(cache: &Cache, key: &str) -> Self {
        cache
            .recall(key)
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    fn by_path(&self) -> HashMap<&str, &Record> {
        self.pages
            .iter()
            .map(|record| (record.path.as_str(), record))
            .collect()
    }

    /// The keys `version` read; none if the records name a key they do not have.
    fn reads(&self, version: &Version) -> Option<Vec<&str>> {
        version
            .reads
            .iter()
            .map(|&k| self.keys.get(k as usize).map(String::as_str))
            .collect()
    }

    /// The inputs of each of `paths`, where a version of its record holds for `digests`.
    pub fn inputs(&self, paths: &[&str], digests: &Digests) -> Vec<Option<PageInputs>> {
        let by_path = self.by_path();
        paths
            .par_iter()
            .map(|path| {
                by_path.get(path)?.versions.iter().find_map(|version| {
                    let reads = self.reads(version)?;
                    (digests.seal(reads.iter().copied()) == version.seal).then(|| PageInputs {
                        hash: version.hash.clone(),
                        reads: reads.into_iter().map(str::to_owned).collect(),
                    })
                })
            })
            .collect()
    }

    /// The records of `pages`, each `(path, inputs)` sealed with `digests`, followed by the
    /// other versions of each page in `before`.
    pub fn new<'a>(
        pages: impl IntoIterator<Item = (&'a str, &'a PageInputs)>,
        digests: &Digests,
        before: &Records,
    ) -> Self {
        let earlier = before.by_path();
        let mut places: HashMap<String, u32> = HashMap::new();
        let mut keys: Vec<String> = Vec::new();
        let mut place = |key: &str| -> u32 {
            if let Some(&at) = places.get(key) {
                return at;
            }
            keys.push(key.to_owned());
            let at = (keys.len() - 1) as u32;
            places.insert(key.to_owned(), at);
            at
        };
        let pages = pages
            .into_iter()
            .map(|(path, inputs)| {
                let seal = digests.seal(inputs.reads.iter().map(String::as_str));
                let mut versions = vec![Version {
                    hash: inputs.hash.clone(),
                    reads: inputs.reads.iter().map(|key| place(key)).collect(),
                    seal,
                }];
                for version in earlier.get(path).map_or(&[][..], |r| &r.versions) {
                    if versions.len() == VERSIONS {
                        break;
                    }
                    let Some(reads) = before.reads(version) else {
                        continue;
                    };
                    if versions.iter().any(|v| v.seal == version.seal) {
                        continue;
                    }
                    versions.push(Version {
                        hash: version.hash.clone(),
                        reads: reads.into_iter().map(&mut place).collect(),
                        seal: version.seal.clone(),
                    });
                }
                Record {
                    path: path.to_owned(),
                    versions,
                }
            })
            .collect();
        Self { keys, pages }
    }

    /// Keeps these records under `key`.
    pub fn remember(&self, cache: &Cache, key: &str) -> Result<()> {
        cache.remember(
            key,
            &serde_json::to_vec(self).context("saving the pages' reads")?,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTENT: &str = r#"{
        "settings": {"brand": "Acme"},
        "routes": [
            {"path": "/", "kind": "home", "title": "Home"},
            {"path": "/insights/a", "kind": "article", "params": {"slug": "a"}, "title": "A"}
        ],
        "articles": [
            {"slug": "a", "category": "ai", "title": "A", "html": ""},
            {"slug": "b", "category": "cloud", "title": "B", "html": ""}
        ],
        "cards": {"/insights/a": {"src": "/card-a.png"}},
        "article_bodies": {"file": "bodies", "spans": [[0, 2, 1], [3, 2, 1]], "digests": ["da", "db"]}
    }"#;

    fn digests(json: &str) -> Digests {
        Digests::of(json.as_bytes(), &cache::hash_hex(&[json.as_bytes()])).expect("digests")
    }

    fn inputs(reads: &[&str]) -> PageInputs {
        PageInputs {
            hash: "h".into(),
            reads: reads.iter().map(|&r| r.to_owned()).collect(),
        }
    }

    /// What the page of the article `a` reads of `CONTENT`.
    const ARTICLE_PAGE_READS: [&str; 6] = [
        "article_bodies/a",
        "articles",
        "articles/a",
        "cards//insights/a",
        "routes",
        "settings",
    ];

    /// Whether the page that read `reads` of `CONTENT` is known still for `after`.
    fn holds(reads: &[&str], after: &str) -> bool {
        let page = inputs(reads);
        let records = Records::new([("/p", &page)], &digests(CONTENT), &Records::default());
        records.inputs(&["/p"], &digests(after))[0].as_ref() == Some(&page)
    }

    #[test]
    fn a_page_is_known_still_while_nothing_it_read_changed() {
        let reads = ARTICLE_PAGE_READS;
        assert!(holds(&reads, CONTENT));
        // Another article's words, and its body.
        assert!(holds(
            &reads,
            &CONTENT.replace(r#""title": "B""#, r#""title": "Bee""#)
        ));
        assert!(holds(&reads, &CONTENT.replace(r#""db""#, r#""dB""#)));
        // Another page's title: the routes as a list are the same.
        assert!(holds(
            &reads,
            &CONTENT.replace(r#""title": "Home""#, r#""title": "Start""#)
        ));
        // A page that lists the article (its entry) and not its body: the body changed.
        assert!(holds(
            &["articles", "articles/a"],
            &CONTENT.replace(r#""da""#, r#""dA""#)
        ));
        // A field it did not read.
        assert!(holds(&["articles/a"], &CONTENT.replace("Acme", "Acme Ltd")));
    }

    #[test]
    fn a_page_is_hashed_again_when_anything_it_read_changed() {
        let reads = ARTICLE_PAGE_READS;
        assert!(!holds(&reads, &CONTENT.replace("Acme", "Acme Ltd")));
        assert!(!holds(
            &reads,
            &CONTENT.replace(r#""title": "A","#, r#""title": "Eh","#)
        ));
        // Its body.
        assert!(!holds(&reads, &CONTENT.replace(r#""da""#, r#""dA""#)));
        assert!(!holds(
            &["article_bodies/a"],
            &CONTENT.replace(r#""da""#, r#""dA""#)
        ));
        // The list: an article's category, or their order.
        assert!(!holds(
            &["articles"],
            &CONTENT.replace(r#""cloud""#, r#""data""#)
        ));
        let swapped = CONTENT
            .replace(r#""slug": "a", "category": "ai""#, "FIRST")
            .replace(
                r#""slug": "b", "category": "cloud""#,
                r#""slug": "a", "category": "ai""#,
            )
            .replace("FIRST", r#""slug": "b", "category": "cloud""#);
        assert!(!holds(&["articles"], &swapped));
        // Its route's title, or the routes' paths.
        let retitled = CONTENT.replace(r#""title": "A"}"#, r#""title": "Eh"}"#);
        assert!(!holds(&["routes//insights/a"], &retitled));
        assert!(holds(&["routes"], &retitled));
        assert!(!holds(
            &["routes"],
            &CONTENT.replace(r#""/insights/a", "kind""#, r#""/insights/b", "kind""#)
        ));
        // Its card, when it read it.
        assert!(!holds(
            &["cards//insights/a"],
            &CONTENT.replace("card-a", "card-a2")
        ));
        // The whole content read: anything.
        assert!(!holds(&["*"], &CONTENT.replace(r#""db""#, r#""dB""#)));
    }

    #[test]
    fn a_key_that_appears_changes_the_seal() {
        // A page that looked for a card the content did not have is hashed again once it has.
        let added = CONTENT.replace(
            r#""cards": {"#,
            r#""cards": {"/insights/b": {"src": "/card-b.png"}, "#,
        );
        assert!(holds(&["cards//insights/b"], CONTENT));
        assert!(!holds(&["cards//insights/b"], &added));
        // An article's record goes with it when it is removed.
        assert!(!holds(
            &["articles/b"],
            &CONTENT.replace(r#""slug": "b""#, r#""slug": "c""#)
        ));
    }

    #[test]
    fn a_page_is_known_again_when_its_content_comes_back() {
        let settings = inputs(&["settings"]);
        let edited = CONTENT.replace("Acme", "Acme Ltd");
        let mut records = Records::new([("/p", &settings)], &digests(CONTENT), &Records::default());
        let mut hash = 0;
        let mut build = |json: &str, records: &Records| {
            hash += 1;
            let now = PageInputs {
                hash: format!("h{hash}"),
                reads: settings.reads.clone(),
            };
            Records::new([("/p", &now)], &digests(json), records)
        };
        records = build(&edited, &records);
        assert_eq!(records.pages[0].versions.len(), 2);
        // Put back: the first version holds again.
        let known = |json: &str, records: &Records| {
            records.inputs(&["/p"], &digests(json))[0]
                .clone()
                .map(|i| i.hash)
        };
        assert_eq!(known(CONTENT, &records).as_deref(), Some("h"));
        assert_eq!(known(&edited, &records).as_deref(), Some("h1"));
        // The same content again keeps one version of it, the newest first.
        records = build(&edited, &records);
        assert_eq!(records.pages[0].versions.len(), 2);
        assert_eq!(known(&edited, &records).as_deref(), Some("h2"));
        // At most VERSIONS are kept: the oldest goes.
        for n in 0..VERSIONS {
            records = build(&CONTENT.replace("Acme", &format!("Acme {n}")), &records);
        }
        assert_eq!(records.pages[0].versions.len(), VERSIONS);
        assert_eq!(known(CONTENT, &records), None);
    }

    #[test]
    fn the_scheme_names_fields_the_content_has() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut content =
            crate::content::Content::load(&root.join("content"), &root.join("site/public"))
                .expect("the site's content");
        content.article_bodies = Some(crate::content::ArticleBodies {
            file: "bodies".into(),
            spans: vec![(0, 0, 0); content.articles.len()],
            digests: vec![String::new(); content.articles.len()],
        });
        let json = serde_json::to_value(&content).expect("JSON");
        let has = |value: &serde_json::Value, field: &str| value.get(field).is_some();
        for list in SCHEME.lists {
            let entries = json[list.field].as_array().expect("a list");
            assert!(!entries.is_empty(), "{}", list.field);
            for entry in entries {
                assert!(has(entry, list.id), "{}.{}", list.field, list.id);
            }
            for field in list.shape {
                // A route's params are only on the kinds that have some.
                assert!(
                    entries.iter().any(|e| has(e, field)),
                    "{}.{field}",
                    list.field
                );
            }
        }
        for map in SCHEME.maps {
            assert!(json[map].is_object(), "{map}");
        }
        for by in SCHEME.by_place {
            assert!(
                json[by.field][by.array].is_array(),
                "{}.{}",
                by.field,
                by.array
            );
        }
    }

    #[test]
    fn records_survive_the_cache() {
        let dir = tempfile::tempdir().expect("a folder");
        let cache = Cache::open(Some(dir.path())).expect("a cache");
        let (home, article) = (
            inputs(&["routes", "settings"]),
            inputs(&["articles/a", "routes"]),
        );
        let digests = digests(CONTENT);
        let key = Records::key("bundle");
        Records::new(
            [("/", &home), ("/insights/a", &article)],
            &digests,
            &Records::default(),
        )
        .remember(&cache, &key)
        .expect("remembered");
        let recalled = Records::recall(&cache, &key);
        assert_eq!(
            recalled.inputs(&["/insights/a", "/", "/new"], &digests),
            [Some(article), Some(home), None]
        );
        // Another bundle's records are its own.
        assert!(
            Records::recall(&cache, &Records::key("other"))
                .pages
                .is_empty()
        );
    }
}
