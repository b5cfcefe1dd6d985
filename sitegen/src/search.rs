//! The static search index of the articles, built at `sitegen build` under `/search/` and read
//! by the Insights search box (`site/enhance/SearchBox.ts`) only after the box first gets focus.
//!
//! An inverted index: every word of an article's title, excerpt, author and body maps to the
//! articles containing it with a weight (a title word counts most, a body word least), so the
//! browser matches the typed words (the last one as a prefix) without reading any body text.
//! Words are lowercased runs of letters and digits; the browser splits a query the same way.
//!
//! Split the way Pagefind splits its index, so a query fetches a few small files whatever the
//! number of articles:
//! - the **entry** (`entry.<hash>.json`, an [`Entry`]): the format version, the number of
//!   articles, every word shard's key and file, and where the article fragments are;
//! - **word shards** (`w/<hash>.json`): the words sharing a key, each with its postings. A
//!   word's key is its first [`KEY_CHARS`] characters (the whole word when shorter); a shard
//!   whose JSON would pass [`SHARD_MAX_BYTES`] splits its longer words by one more character,
//!   again and again, so only a single very common word can make a shard larger than that.
//!   A word is in the shard of the longest key it starts with. Two characters give a few
//!   hundred shards for English text: the entry stays a few kB and a typical shard too; one
//!   character would make shards of every `s…` or `c…` word, three would list thousands of keys;
//! - **fragments** (`d-<hash>/<n>.json`, a [`Doc`]): what a result shows, one file per article,
//!   fetched for the results on screen only. One hash names the folder of them all, so the
//!   entry stays small (no hash per article) and every name still changes with its content.
//!
//! Every name carries a hash of the content it names (the fragments' of all fragments), so
//! `_headers` caches the whole folder as immutable and the page names the entry it was built
//! with ([`Content::search_index_path`]). Articles are numbered oldest first, so a new article
//! leaves the postings of the others, and the shards without its words, unchanged.
//!
//! Postings are `[doc, weight]` pairs flattened into one array in the order of the articles,
//! each doc number given as the difference to the one before: a common word's postings become
//! a run of small repeating numbers that compress to almost nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::ops::Bound;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::{Content, RouteKind};

/// The folder of the index in the output, relative to the site root.
pub const DIR: &str = "search";
/// The version of the index's format, in the entry.
pub const FORMAT_VERSION: u32 = 1;
/// A word's shard key is its first this many characters; the browser matches a last word as a
/// prefix once it has this many (a shorter one would need every shard of its letter).
pub const KEY_CHARS: usize = 2;
/// A shard whose JSON is larger than this splits by one more character of its words.
pub const SHARD_MAX_BYTES: usize = 16 * 1024;
/// The placeholder of the article number in [`Entry::fragments`].
pub const DOC_PLACEHOLDER: &str = "{doc}";

const TITLE_WEIGHT: u32 = 20;
const META_WEIGHT: u32 = 8;
const BODY_WEIGHT: u32 = 1;
/// A word repeated in a body counts at most this often, so long articles do not drown short ones.
const BODY_REPEAT_CAP: u32 = 5;
/// Hex digits of the content hash in a file name.
const HASH_DIGITS: usize = 12;

/// One searchable article: what a result shows (a fragment file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "SearchDoc")]
pub struct Doc {
    /// The article's page.
    pub url: String,
    /// Its title.
    pub title: String,
    /// Its excerpt.
    pub excerpt: String,
    /// Its author's name.
    pub author: String,
}

/// The entry file: what the browser reads first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "SearchEntry")]
pub struct Entry {
    /// [`FORMAT_VERSION`].
    pub version: u32,
    /// How many articles are indexed, numbered from 0, oldest first.
    pub docs: usize,
    /// [`KEY_CHARS`]: the length of the shortest shard keys.
    pub prefix: usize,
    /// Shard key -> the shard's file, relative to the entry's folder.
    pub shards: BTreeMap<String, String>,
    /// An article's fragment file, relative to the entry's folder, with [`DOC_PLACEHOLDER`]
    /// where its number goes.
    pub fragments: String,
}

/// The words of one shard: word -> postings (`doc delta, weight` pairs, flattened).
pub type Shard = BTreeMap<String, Vec<u32>>;

/// What is indexed of one article.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    /// What a result shows.
    pub doc: Doc,
    /// The body's text.
    pub body: &'a str,
}

/// The built index: every file under [`DIR`], by path relative to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Files {
    /// The entry's file name.
    pub entry: String,
    /// Every file, the entry included.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Files {
    /// The URL path of the entry (`/search/entry.<hash>.json`).
    pub fn entry_path(&self) -> String {
        format!("/{DIR}/{}", self.entry)
    }

    /// Writes every file under `site_dir/search/`.
    pub fn write(&self, site_dir: &Path) -> Result<()> {
        let root = site_dir.join(DIR);
        for (name, bytes) in &self.files {
            let path = root.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
            std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(())
    }
}

impl Entry {
    /// The keys of the shards that may hold `word` (as a whole word) or, with `prefix`, the
    /// words starting with it: the longest key `word` starts with, and with `prefix` every key
    /// that starts with `word`.
    pub fn keys_for(&self, word: &str, prefix: bool) -> BTreeSet<&str> {
        let mut keys = BTreeSet::new();
        let mut cut: Vec<usize> = word.char_indices().map(|(i, _)| i).skip(1).collect();
        cut.push(word.len());
        if let Some(key) = cut
            .iter()
            .rev()
            .find_map(|&end| self.shards.get_key_value(&word[..end]))
        {
            keys.insert(key.0.as_str());
        }
        if prefix {
            keys.extend(
                self.shards
                    .range::<str, _>((Bound::Included(word), Bound::Unbounded))
                    .map(|(key, _)| key.as_str())
                    .take_while(|key| key.starts_with(word)),
            );
        }
        keys
    }

    /// The fragment file of article `doc`, relative to the entry's folder.
    pub fn fragment(&self, doc: usize) -> String {
        self.fragments.replace(DOC_PLACEHOLDER, &doc.to_string())
    }
}

/// The values of the index's format the browser needs besides the [`Entry`] and [`Doc`] types,
/// as a TypeScript module (`site/schema/search.ts`, written by `sitegen schema`).
pub fn typescript() -> String {
    format!(
        "// Generated by `sitegen schema` from sitegen/src/search.rs. Do not edit.\n\n\
         /** Where an article's number goes in `SearchEntry.fragments`. */\n\
         export const DOC_PLACEHOLDER = {DOC_PLACEHOLDER:?}\n"
    )
}

/// Lowercased runs of letters and digits.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// What is indexed of every article, oldest first.
pub fn sources(content: &Content) -> Vec<Source<'_>> {
    content
        .articles
        .iter()
        .rev()
        .map(|article| Source {
            doc: Doc {
                url: RouteKind::Article {
                    slug: article.slug.clone(),
                }
                .path(),
                title: article.title.clone(),
                excerpt: article.excerpt.clone(),
                author: content
                    .authors
                    .get(&article.author)
                    .map_or(article.author.clone(), |a| a.name.clone()),
            },
            body: &article.text,
        })
        .collect()
}

/// Builds the index of every article and names its entry in `content.search_index_path`.
pub fn attach(content: &mut Content) -> Result<Files> {
    let files = build(&sources(content), SHARD_MAX_BYTES)?;
    content.search_index_path = files.entry_path();
    Ok(files)
}

/// Word -> postings (`(doc, weight)`, by doc) of `sources`.
fn postings(sources: &[Source<'_>]) -> BTreeMap<String, Vec<(u32, u32)>> {
    let mut index: BTreeMap<String, BTreeMap<u32, u32>> = BTreeMap::new();
    for (doc, source) in (0u32..).zip(sources) {
        let mut add = |text: &str, weight: u32, cap: u32| {
            let mut seen: BTreeMap<String, u32> = BTreeMap::new();
            for word in words(text) {
                let n = seen.entry(word).or_insert(0);
                if *n < cap {
                    *n += 1;
                }
            }
            for (word, n) in seen {
                *index.entry(word).or_default().entry(doc).or_insert(0) += weight * n;
            }
        };
        add(&source.doc.title, TITLE_WEIGHT, 1);
        add(&source.doc.excerpt, META_WEIGHT, 1);
        add(&source.doc.author, META_WEIGHT, 1);
        add(source.body, BODY_WEIGHT, BODY_REPEAT_CAP);
    }
    index
        .into_iter()
        .map(|(word, docs)| (word, docs.into_iter().collect()))
        .collect()
}

/// The flattened, delta-coded form of `postings`.
fn encode(postings: &[(u32, u32)]) -> Vec<u32> {
    let mut out = Vec::with_capacity(postings.len() * 2);
    let mut previous = 0;
    for &(doc, weight) in postings {
        out.extend([doc - previous, weight]);
        previous = doc;
    }
    out
}

/// The first `n` characters of `word` (all of it when shorter).
fn key_of(word: &str, n: usize) -> &str {
    word.char_indices().nth(n).map_or(word, |(i, _)| &word[..i])
}

/// Splits the words (sorted, each with its encoded postings) into shards by key: see the
/// module documentation.
fn shard(words: Vec<(String, Vec<u32>)>, max_bytes: usize) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut shards = BTreeMap::new();
    let mut pending: Vec<(usize, Vec<(String, Vec<u32>)>)> = vec![(KEY_CHARS, words)];
    while let Some((chars, group)) = pending.pop() {
        let mut by_key: BTreeMap<String, Vec<(String, Vec<u32>)>> = BTreeMap::new();
        for (word, postings) in group {
            by_key
                .entry(key_of(&word, chars).to_owned())
                .or_default()
                .push((word, postings));
        }
        for (key, group) in by_key {
            let json = serde_json::to_vec(&group.iter().cloned().collect::<Shard>())
                .context("serialising a search shard")?;
            let longer = group.iter().any(|(word, _)| word.len() > key.len());
            if json.len() > max_bytes && longer {
                let (whole, rest): (Vec<_>, Vec<_>) =
                    group.into_iter().partition(|(word, _)| *word == key);
                if !whole.is_empty() {
                    let json = serde_json::to_vec(&whole.into_iter().collect::<Shard>())
                        .context("serialising a search shard")?;
                    shards.insert(key, json);
                }
                pending.push((chars + 1, rest));
            } else {
                shards.insert(key, json);
            }
        }
    }
    Ok(shards)
}

/// Builds the index files of `sources` (oldest first), splitting shards over `max_bytes`.
pub fn build(sources: &[Source<'_>], max_bytes: usize) -> Result<Files> {
    let words = postings(sources)
        .into_iter()
        .map(|(word, postings)| (word, encode(&postings)))
        .collect();
    let mut files = BTreeMap::new();
    let mut shards = BTreeMap::new();
    for (key, json) in shard(words, max_bytes)? {
        let name = format!("w/{}.json", hash(&[&json]));
        shards.insert(key, name.clone());
        files.insert(name, json);
    }
    let fragments: Vec<Vec<u8>> = sources
        .iter()
        .map(|s| serde_json::to_vec(&s.doc))
        .collect::<Result<_, _>>()
        .context("serialising a search fragment")?;
    let folder = format!(
        "d-{}",
        hash(&fragments.iter().map(Vec::as_slice).collect::<Vec<_>>())
    );
    for (doc, json) in fragments.into_iter().enumerate() {
        files.insert(format!("{folder}/{doc}.json"), json);
    }
    let entry = Entry {
        version: FORMAT_VERSION,
        docs: sources.len(),
        prefix: KEY_CHARS,
        shards,
        fragments: format!("{folder}/{DOC_PLACEHOLDER}.json"),
    };
    let json = serde_json::to_vec(&entry).context("serialising the search entry")?;
    let name = format!("entry.{}.json", hash(&[&json]));
    files.insert(name.clone(), json);
    Ok(Files { entry: name, files })
}

/// A short content hash of `parts` for file names (FNV-1a, 64 bits): it only has to tell
/// versions of the same file apart, not resist anyone.
fn hash(parts: &[&[u8]]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in part.iter().chain(&[0xff]) {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    let mut hex = String::with_capacity(16);
    let _ = write!(hex, "{h:016x}");
    hex.truncate(HASH_DIGITS);
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source<'a>(n: usize, title: &str, body: &'a str) -> Source<'a> {
        Source {
            doc: Doc {
                url: format!("/insights/a{n}"),
                title: title.to_owned(),
                excerpt: format!("Excerpt {n}"),
                author: "Ada Lind".to_owned(),
            },
            body,
        }
    }

    fn entry(files: &Files) -> Entry {
        serde_json::from_slice(&files.files[&files.entry]).expect("the entry parses")
    }

    fn shard_of(files: &Files, key: &str) -> Shard {
        let name = &entry(files).shards[key];
        serde_json::from_slice(&files.files[name]).expect("a shard parses")
    }

    /// The shard files holding `word`, found the way the browser looks.
    fn find(files: &Files, word: &str) -> Vec<(String, Vec<u32>)> {
        let entry = entry(files);
        entry
            .keys_for(word, false)
            .into_iter()
            .filter_map(|key| shard_of(files, key).remove(word).map(|p| (key.to_owned(), p)))
            .collect()
    }

    #[test]
    fn words_are_lowercased_runs_of_letters_and_digits() {
        let found: Vec<String> = words("Kubernetes' cost, in 2024: 95%!").collect();
        assert_eq!(found, ["kubernetes", "cost", "in", "2024", "95"]);
    }

    #[test]
    fn words_land_in_the_shard_of_their_first_characters() {
        let sources = [
            source(0, "Kubernetes cost", "a kubelet in Øresund, 95 nodes"),
            source(1, "Kafka", "kubernetes again"),
        ];
        let files = build(&sources, SHARD_MAX_BYTES).expect("builds");
        let entry = entry(&files);
        assert_eq!(
            entry.shards.keys().map(String::as_str).collect::<Vec<_>>(),
            ["0", "1", "95", "a", "ad", "ag", "co", "ex", "in", "ka", "ku", "li", "no", "ør"]
        );
        assert_eq!(
            find(&files, "kubernetes"),
            [("ku".to_owned(), vec![0, 20, 1, 1])]
        );
        assert_eq!(find(&files, "kubelet"), [("ku".to_owned(), vec![0, 1])]);
        assert_eq!(find(&files, "øresund"), [("ør".to_owned(), vec![0, 1])]);
        assert_eq!(find(&files, "a"), [("a".to_owned(), vec![0, 1])]);
        assert!(find(&files, "kube").is_empty());
        assert_eq!(entry.docs, 2);
        assert_eq!(entry.prefix, KEY_CHARS);
        assert_eq!(entry.version, FORMAT_VERSION);
    }

    #[test]
    fn a_shard_over_the_size_limit_splits_by_one_more_character() {
        let body = "cab cabin cable cabinet cobalt cab";
        let sources: Vec<Source<'_>> = (0..40).map(|n| source(n, "T", body)).collect();
        let small = build(&sources, SHARD_MAX_BYTES).expect("builds");
        assert_eq!(entry(&small).keys_for("ca", true), BTreeSet::from(["ca"]));
        let limit = serde_json::to_vec(&shard_of(&small, "ca")).expect("json").len() - 1;
        let split = build(&sources, limit).expect("builds");
        let entry = entry(&split);
        // `cab` itself keeps the key `cab`; its longer words split again when still too big.
        assert!(entry.shards.contains_key("cab"), "{:?}", entry.shards);
        assert!(!entry.shards.contains_key("ca"), "{:?}", entry.shards);
        assert!(entry.shards.contains_key("co"), "{:?}", entry.shards);
        for (key, name) in &entry.shards {
            let shard: Shard = serde_json::from_slice(&split.files[name]).expect("parses");
            assert!(
                split.files[name].len() <= limit || shard.len() == 1,
                "shard {key} is over the limit with {} words",
                shard.len()
            );
            for word in shard.keys() {
                assert!(word.starts_with(key.as_str()), "{word} in shard {key}");
            }
        }
        // Every word is still found, by exact lookup and by prefix.
        for word in ["cab", "cabin", "cable", "cabinet", "cobalt"] {
            assert_eq!(find(&split, word).len(), 1, "{word}");
        }
        let by_prefix: BTreeSet<String> = entry
            .keys_for("ca", true)
            .into_iter()
            .flat_map(|key| shard_of(&split, key).into_keys())
            .filter(|w| w.starts_with("ca"))
            .collect();
        assert_eq!(
            by_prefix,
            BTreeSet::from(["cab", "cabin", "cabinet", "cable"].map(String::from))
        );
    }

    #[test]
    fn postings_are_delta_coded_with_the_weights() {
        let sources = [
            source(0, "Kafka streams", "kafka kafka kafka kafka kafka kafka kafka"),
            source(1, "Other", "nothing here"),
            source(2, "Other", "kafka once"),
        ];
        let files = build(&sources, SHARD_MAX_BYTES).expect("builds");
        // Title 20 plus the body's seven repeats capped at 5; then one body mention.
        assert_eq!(
            find(&files, "kafka"),
            [("ka".to_owned(), vec![0, 25, 2, 1])]
        );
    }

    #[test]
    fn fragments_round_trip() {
        let sources: Vec<Source<'_>> = (0..3).map(|n| source(n, "Title", "body")).collect();
        let files = build(&sources, SHARD_MAX_BYTES).expect("builds");
        let entry = entry(&files);
        for (n, source) in sources.iter().enumerate() {
            let doc: Doc =
                serde_json::from_slice(&files.files[&entry.fragment(n)]).expect("parses");
            assert_eq!(doc, source.doc);
        }
        assert_eq!(files.entry_path(), format!("/search/{}", files.entry));
    }

    #[test]
    fn names_change_with_the_content_and_identical_builds_are_identical() {
        let sources = [source(0, "Kafka", "alpha beta"), source(1, "Other", "gamma")];
        let first = build(&sources, SHARD_MAX_BYTES).expect("builds");
        assert_eq!(first, build(&sources, SHARD_MAX_BYTES).expect("builds"));

        let mut changed = sources.clone();
        changed[1].body = "gamma delta";
        let second = build(&changed, SHARD_MAX_BYTES).expect("builds");
        let (a, b) = (entry(&first), entry(&second));
        assert_ne!(first.entry, second.entry);
        // Only the shard with the new word differs; the others keep their names.
        assert_eq!(a.shards["al"], b.shards["al"]);
        assert_eq!(a.shards["ga"], b.shards["ga"]);
        assert!(b.shards.contains_key("de"));
        assert_eq!(a.fragments, b.fragments, "no fragment changed");

        changed[1].doc.title = "Renamed".to_owned();
        let third = build(&changed, SHARD_MAX_BYTES).expect("builds");
        assert_ne!(entry(&third).fragments, b.fragments);
        // Every file name under the folder is unique to its content.
        for files in [&first, &second, &third] {
            for (name, bytes) in &files.files {
                if !name.starts_with("d-") {
                    assert!(name.contains(&hash(&[bytes])), "{name}");
                }
            }
        }
    }
}
