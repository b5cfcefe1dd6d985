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
//! - **word shards** (`w/<hash>.json`): runs of consecutive words (in code point order), each
//!   with its postings, of at most [`SHARD_MAX_BYTES`] of JSON (a single word may be larger).
//!   A shard's key is the first characters of its first word, as few as tell it from the last
//!   word of the shard before (`the` after `terraform`, `kube` after `kotlin`): a word is in the
//!   shard with the greatest key not after it, and the words starting with a prefix are in
//!   that shard and the ones after it whose keys start with the prefix. Cutting by size rather
//!   than at fixed prefixes (every `ku…` word in one shard) keeps shards alike in size: fixed
//!   two-character prefixes give shards of a few bytes (`qz`) beside shards of every `co…`
//!   word, and splitting the large ones by more characters leaves thousands of tiny shards
//!   whose keys make the entry larger than the shards (measured: 5,000 shards, a 60 kB entry);
//! - **fragments** (`d-<hash>/<n>.json`, a [`Doc`]): what a result shows, one file per article,
//!   fetched for the results on screen only. The fragments of each [`RUN`] of consecutive
//!   articles share a folder named by a hash of theirs, so the entry stays small (a hash per
//!   folder, not per article) and every name still changes with its content; a new article or
//!   a renamed one renames its own folder only, not the fragments of every article.
//!
//! Every name carries a hash of the content it names (a folder's, of its fragments), so
//! `_headers` caches the whole folder as immutable and the page names the entry it was built
//! with ([`Content::search_index_path`]). The browser matches the last typed word as a prefix
//! once it has [`MIN_PREFIX`] characters: one character would need every shard of its letter.
//!
//! The words are indexed in [`RUN`]s of consecutive articles, in parallel; `sitegen build`
//! remembers each run's postings in its cache ([`Memo`]), so a rebuild after one article
//! changed indexes that article's run again and recalls the others.
//!
//! Postings are `[doc, weight]` pairs flattened into one array in the order of the articles,
//! each doc number given as the difference to the one before: a common word's postings become
//! a run of small repeating numbers that compress to almost nothing. Articles are numbered
//! oldest first, so a new article adds to the end of each list and leaves the others' numbers
//! as they were; the browser gives ties to the higher number, the newer article.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, ensure};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::{Content, RouteKind};

/// The folder of the index in the output, relative to the site root.
pub const DIR: &str = "search";
/// The version of the index's format, in the entry.
pub const FORMAT_VERSION: u32 = 2;
/// The browser matches the last typed word as a prefix once it has this many characters.
pub const MIN_PREFIX: usize = 2;
/// A word shard's JSON stays within this many bytes, unless a single word's postings are larger.
/// A query fetches the entry and a shard: halving this doubles the entry's list of shards, and
/// at 5,000 generated articles 24 kB (about 5 kB gzipped) keeps both near their smallest sum.
pub const SHARD_MAX_BYTES: usize = 24 * 1024;
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
    /// [`MIN_PREFIX`]: how many characters a last word needs to be matched as a prefix.
    pub prefix: usize,
    /// Every word shard as `[key, file]` (the file relative to the entry's folder), in the
    /// order of their words; the first key is empty.
    pub shards: Vec<(String, String)>,
    /// How many articles' fragments share a folder ([`RUN`]): article `doc`'s fragment is in
    /// the folder of [`Self::fragments`] at `doc / per_folder`.
    pub per_folder: usize,
    /// Each folder's fragment file, relative to the entry's folder, with [`DOC_PLACEHOLDER`]
    /// where an article's number goes: one folder per [`Self::per_folder`] articles, in order.
    pub fragments: Vec<String>,
}

/// A word with its postings (`doc delta, weight` pairs, flattened).
type WordPostings = (String, Vec<u32>);

/// The words of one shard: word -> postings (`doc delta, weight` pairs, flattened).
pub type Shard = BTreeMap<String, Vec<u32>>;

/// What is indexed of one article.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    /// What a result shows.
    pub doc: Doc,
    /// The body's text.
    pub body: &'a str,
    /// The letters the language's readers type as others (`õ` as `o`), from `search_folds`
    /// of its language in `site.yaml`: indexed as those, as the browser folds a query.
    pub fold: &'a [(char, char)],
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
    /// The shards (indexes into [`Self::shards`]) that may hold `word` (as a whole word) or,
    /// with `prefix`, the words starting with it: the one with the greatest key not after
    /// `word`, and with `prefix` the ones after it whose keys start with `word`.
    pub fn shards_for(&self, word: &str, prefix: bool) -> Vec<usize> {
        let at = self
            .shards
            .partition_point(|(key, _)| key.as_str() <= word)
            .saturating_sub(1);
        let mut found = vec![at];
        if prefix {
            found.extend(
                (at + 1..self.shards.len()).take_while(|&i| self.shards[i].0.starts_with(word)),
            );
        }
        found
    }

    /// The fragment file of article `doc`, relative to the entry's folder; `None` past the last.
    pub fn fragment(&self, doc: usize) -> Option<String> {
        let folder = self.fragments.get(doc.checked_div(self.per_folder)?)?;
        (doc < self.docs).then(|| folder.replace(DOC_PLACEHOLDER, &doc.to_string()))
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
    tokens(text).map(Cow::into_owned)
}

/// `word` with each letter of `fold` replaced as it says (`jõud` -> `joud` for Estonian).
fn folded<'w>(word: Cow<'w, str>, fold: &[(char, char)]) -> Cow<'w, str> {
    if fold.is_empty() || word.is_ascii() {
        return word;
    }
    Cow::Owned(
        word.chars()
            .map(|c| {
                fold.iter()
                    .find(|(from, _)| *from == c)
                    .map_or(c, |(_, to)| *to)
            })
            .collect(),
    )
}

/// [`words`], borrowed from `text` where it is lowercase already (most words of most text).
fn tokens(text: &str) -> impl Iterator<Item = Cow<'_, str>> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            if w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            {
                Cow::Borrowed(w)
            } else {
                Cow::Owned(w.to_lowercase())
            }
        })
}

/// What is indexed of every article of `content` (one language's), oldest first, each with its
/// page's path in that language and the language's `fold`.
pub fn sources<'a>(content: &'a Content, fold: &'a [(char, char)]) -> Vec<Source<'a>> {
    let paths: std::collections::HashMap<&RouteKind, &str> = content
        .routes
        .iter()
        .map(|route| (&route.kind, route.path.as_str()))
        .collect();
    content
        .articles
        .iter()
        .rev()
        .map(|article| Source {
            doc: Doc {
                url: {
                    let kind = RouteKind::Article {
                        slug: article.slug.clone(),
                    };
                    paths
                        .get(&kind)
                        .map_or_else(|| kind.path(), |p| (*p).to_owned())
                },
                title: article.title.clone(),
                excerpt: article.excerpt.clone(),
                author: content
                    .authors
                    .get(&article.author)
                    .map_or(article.author.clone(), |a| a.name.clone()),
            },
            body: &article.text,
            fold,
        })
        .collect()
}

/// The letters the readers of `content`'s language type as others, from `site.yaml`.
pub fn fold_of(content: &Content) -> Vec<(char, char)> {
    content
        .settings
        .current_language()
        .map(|language| language.search_fold())
        .unwrap_or_default()
}

/// Builds the index of every article and names its entry in `content.search_index_path`.
pub fn attach(content: &mut Content) -> Result<Files> {
    let fold = fold_of(content);
    let files = build(&sources(content, &fold), SHARD_MAX_BYTES)?;
    content.search_index_path = files.entry_path();
    Ok(files)
}

/// Articles per run: the index is built in runs of consecutive articles (in parallel), and a
/// build remembers each run's postings, so a change to one article indexes its run again and
/// recalls the others. Small enough that a run is quick to index, large enough that a run holds
/// each of its common words once.
pub const RUN: usize = 256;

/// What the index keeps between builds: each run's postings, under a key of what the run is
/// made of. [`NoMemo`] keeps nothing.
pub trait Memo: Sync {
    /// A key for a value made from `parts` (a content hash).
    fn key(&self, parts: &[&[u8]]) -> String;
    /// What [`Memo::remember`] kept under `key`.
    fn recall(&self, key: &str) -> Option<Vec<u8>>;
    /// Keeps `value` under `key`.
    fn remember(&self, key: &str, value: &[u8]) -> Result<()>;
}

/// A [`Memo`] that keeps nothing: every run is indexed.
#[derive(Debug, Clone, Copy)]
pub struct NoMemo;

impl Memo for NoMemo {
    fn key(&self, _: &[&[u8]]) -> String {
        String::new()
    }
    fn recall(&self, _: &str) -> Option<Vec<u8>> {
        None
    }
    fn remember(&self, _: &str, _: &[u8]) -> Result<()> {
        Ok(())
    }
}

/// The articles to index, in runs of [`RUN`], each with its key in a [`Memo`].
#[derive(Debug)]
pub struct Runs<'s, 'a> {
    sources: &'s [Source<'a>],
    keys: Vec<String>,
}

impl<'s, 'a> Runs<'s, 'a> {
    /// The runs of `sources` (oldest first), keyed by `memo`: a run's key covers the index's
    /// format, the number of its first article and what is indexed of each of its articles.
    pub fn new(sources: &'s [Source<'a>], memo: &dyn Memo) -> Result<Self> {
        let keys = sources
            .par_chunks(RUN)
            .enumerate()
            .map(|(r, run)| {
                let mut docs = Vec::with_capacity(run.len());
                for source in run {
                    docs.push(serde_json::to_vec(&source.doc)?);
                }
                let first = (r * RUN).to_le_bytes();
                let mut parts: Vec<&[u8]> = vec![RUN_FORMAT.as_bytes(), &first];
                let folds: Vec<String> = run
                    .iter()
                    .map(|source| source.fold.iter().flat_map(|(a, b)| [*a, *b]).collect())
                    .collect();
                for ((doc, source), fold) in docs.iter().zip(run).zip(&folds) {
                    parts.extend([doc.as_slice(), source.body.as_bytes(), fold.as_bytes()]);
                }
                Ok(memo.key(&parts))
            })
            .collect::<Result<_>>()?;
        Ok(Self { sources, keys })
    }

    /// Each run's key, in order: together they name everything the index is built from.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// Every word, in order, with its postings delta-coded: each run recalled from `memo` or
    /// indexed (and remembered), then the runs' sorted words merged, so each word's postings
    /// join in article order.
    fn postings(&self, memo: &dyn Memo) -> Result<Vec<WordPostings>> {
        let runs: Vec<Vec<u8>> = self
            .sources
            .par_chunks(RUN)
            .zip(&self.keys)
            .map(|(run, key)| {
                // What a damaged cache holds is indexed again, as if it were not there.
                let recalled = memo.recall(key).filter(|bytes| decode_run(bytes).is_ok());
                if let Some(bytes) = recalled {
                    return Ok(bytes);
                }
                let bytes = encode_run(&index_run(run));
                memo.remember(key, &bytes)?;
                Ok(bytes)
            })
            .collect::<Result<_>>()?;
        let runs = runs
            .iter()
            .map(|bytes| decode_run(bytes))
            .collect::<Result<Vec<_>>>()
            .context("reading a run of the search index")?;
        Ok(merge(&runs))
    }

    /// Builds the index files, splitting shards over `max_bytes`; runs come from `memo` when
    /// it has them.
    pub fn build(&self, max_bytes: usize, memo: &dyn Memo) -> Result<Files> {
        files(self.sources, self.postings(memo)?, max_bytes)
    }
}

/// Changes whenever a run is indexed or stored differently.
const RUN_FORMAT: &str = "sitegen-search-run-2";

/// The words of `runs` (each run's words in order, its docs numbered from its first article,
/// run `r` starting at article `r * RUN`), merged in order: each word once, its postings from
/// every run that has it, delta-coded.
///
/// The words are cut into ranges at words sampled from the runs, and the ranges merged in
/// parallel: a word's postings depend on that word alone, so the result is the same.
fn merge(runs: &[Vec<RunWord<'_>>]) -> Vec<WordPostings> {
    let parts = rayon::current_num_threads() * MERGE_PARTS_PER_THREAD;
    let mut sample: Vec<&str> = runs
        .iter()
        .flat_map(|words| words.iter().step_by(MERGE_SAMPLE_STEP).map(|w| w.word))
        .collect();
    sample.sort_unstable();
    sample.dedup();
    let mut bounds: Vec<Option<&str>> = (1..parts)
        .filter_map(|i| sample.get(i * sample.len() / parts).copied())
        .map(Some)
        .collect();
    bounds.dedup();
    let lows = std::iter::once(None).chain(bounds.iter().copied());
    let highs = bounds.iter().copied().chain(std::iter::once(None));
    let ranges: Vec<(Option<&str>, Option<&str>)> = lows.zip(highs).collect();
    let merged: Vec<Vec<WordPostings>> = ranges
        .into_par_iter()
        .map(|(low, high)| {
            let slices: Vec<(usize, &[RunWord<'_>])> = runs
                .iter()
                .enumerate()
                .map(|(r, words)| {
                    let at = |bound: Option<&str>, or: usize| {
                        bound.map_or(or, |bound| words.partition_point(|w| w.word < bound))
                    };
                    (r, &words[at(low, 0)..at(high, words.len())])
                })
                .collect();
            merge_slices(&slices)
        })
        .collect();
    merged.into_iter().flatten().collect()
}

/// How many ranges per thread [`merge`] cuts the words into, so that a thread that finished
/// its range early takes another.
const MERGE_PARTS_PER_THREAD: usize = 4;
/// [`merge`] picks the bounds of its ranges among every this many words of each run.
const MERGE_SAMPLE_STEP: usize = 64;

/// [`merge`] of the words of some runs, each `(r, words)` with `r` the run's number: a k-way
/// merge of sorted lists, so no word is hashed or sorted again, and each is copied once.
fn merge_slices(runs: &[(usize, &[RunWord<'_>])]) -> Vec<WordPostings> {
    let mut next = vec![0; runs.len()];
    // The smallest (word, run) first: a word's runs come out in article order.
    let mut heads: BinaryHeap<Reverse<(&str, usize)>> = runs
        .iter()
        .enumerate()
        .filter_map(|(i, (_, words))| Some(Reverse((words.first()?.word, i))))
        .collect();
    let mut merged = Vec::new();
    while let Some(&Reverse((word, _))) = heads.peek() {
        let mut postings = Vec::new();
        let mut previous = 0;
        while let Some(&Reverse((head, i))) = heads.peek() {
            if head != word {
                break;
            }
            heads.pop();
            let (r, words) = runs[i];
            let first = u32::try_from(r * RUN).unwrap_or(u32::MAX);
            for (doc, weight) in words[next[i]].postings() {
                let doc = first + doc;
                postings.extend([doc - previous, weight]);
                previous = doc;
            }
            next[i] += 1;
            if let Some(after) = words.get(next[i]) {
                heads.push(Reverse((after.word, i)));
            }
        }
        merged.push((word.to_owned(), postings));
    }
    merged
}

/// The maps of words while a run is indexed: their order never shows (a run's words are sorted
/// when stored), so a fast hash that resists no one will do; at 5,000 articles it indexes a run
/// about a third faster than the standard one.
type FastMap<K, V> = foldhash::HashMap<K, V>;

/// Word -> postings of one run, numbered from its first article, each list by doc.
///
/// The run holds each of its words once, however many of its articles have it: indexing
/// article by article and merging after held every article's every word at once, 300 MB at
/// 5,000 articles.
fn index_run(sources: &[Source<'_>]) -> FastMap<String, Vec<(u32, u32)>> {
    let mut index: FastMap<String, Vec<(u32, u32)>> = FastMap::default();
    let mut weights = Weights::default();
    for (doc, source) in (0..).zip(sources) {
        let fold = source.fold;
        weights.add(&source.doc.title, TITLE_WEIGHT, 1, fold);
        weights.add(&source.doc.excerpt, META_WEIGHT, 1, fold);
        weights.add(&source.doc.author, META_WEIGHT, 1, fold);
        weights.add(source.body, BODY_WEIGHT, BODY_REPEAT_CAP, fold);
        for (word, weight) in weights.total.drain() {
            index.entry(word).or_default().push((doc, weight));
        }
    }
    index
}

/// A run's postings as bytes: per word, in order, its length, its UTF-8, its number of
/// postings and each `(doc, weight)`, every number a little-endian `u32`.
fn encode_run(index: &FastMap<String, Vec<(u32, u32)>>) -> Vec<u8> {
    let mut out = Vec::new();
    let number = |out: &mut Vec<u8>, n: usize| {
        out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    };
    let mut words: Vec<_> = index.iter().collect();
    words.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (word, postings) in words {
        number(&mut out, word.len());
        out.extend_from_slice(word.as_bytes());
        number(&mut out, postings.len());
        for &(doc, weight) in postings {
            out.extend_from_slice(&doc.to_le_bytes());
            out.extend_from_slice(&weight.to_le_bytes());
        }
    }
    out
}

/// One word of a run as [`encode_run`] wrote it, read in place.
struct RunWord<'b> {
    word: &'b str,
    /// Its `(doc, weight)` pairs, eight bytes each.
    pairs: &'b [u8],
}

impl RunWord<'_> {
    fn postings(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.pairs.chunks_exact(8).map(|pair| {
            let n = |at: usize| {
                u32::from_le_bytes([pair[at], pair[at + 1], pair[at + 2], pair[at + 3]])
            };
            (n(0), n(4))
        })
    }
}

/// The words of [`encode_run`]'s `bytes`, in order, or why the bytes are not a run.
fn decode_run(mut bytes: &[u8]) -> Result<Vec<RunWord<'_>>> {
    fn take<'b>(bytes: &mut &'b [u8], n: usize) -> Result<&'b [u8]> {
        ensure!(bytes.len() >= n, "it ends early");
        let (head, rest) = bytes.split_at(n);
        *bytes = rest;
        Ok(head)
    }
    fn number(bytes: &mut &[u8]) -> Result<u32> {
        let four = take(bytes, 4)?;
        Ok(u32::from_le_bytes([four[0], four[1], four[2], four[3]]))
    }
    let mut words: Vec<RunWord<'_>> = Vec::new();
    while !bytes.is_empty() {
        let len = number(&mut bytes)? as usize;
        let word = std::str::from_utf8(take(&mut bytes, len)?)?;
        // The merge relies on the order: a run out of order is damaged.
        ensure!(
            words.last().is_none_or(|last| last.word < word),
            "its words are out of order"
        );
        let count = number(&mut bytes)? as usize;
        let pairs = take(
            &mut bytes,
            count.checked_mul(8).context("too many postings")?,
        )?;
        words.push(RunWord { word, pairs });
    }
    Ok(words)
}

/// One article's weight per word, with the maps kept from article to article: a word is
/// allocated only the first time the article has it.
#[derive(Default)]
struct Weights {
    total: FastMap<String, u32>,
    seen: FastMap<String, u32>,
}

impl Weights {
    /// Adds `weight` for each time a word is in `text`, counting at most `cap` times a word.
    fn add(&mut self, text: &str, weight: u32, cap: u32, fold: &[(char, char)]) {
        for word in tokens(text).map(|word| folded(word, fold)) {
            match self.seen.get_mut(word.as_ref()) {
                Some(n) => *n = (*n + 1).min(cap),
                None => {
                    self.seen.insert(word.into_owned(), 1);
                }
            }
        }
        for (word, n) in self.seen.drain() {
            *self.total.entry(word).or_insert(0) += weight * n;
        }
    }
}

/// The decimal digits of `n`.
fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// The shortest prefix of `word` that sorts after `before`.
fn separator<'w>(before: &str, word: &'w str) -> &'w str {
    word.char_indices()
        .map(|(i, c)| &word[..i + c.len_utf8()])
        .find(|prefix| *prefix > before)
        .unwrap_or(word)
}

/// Cuts the words (sorted, each with its encoded postings) into runs of at most `max_bytes`
/// of JSON, each keyed as the module documentation says: `(key, shard JSON)`.
fn shard(words: Vec<WordPostings>, max_bytes: usize) -> Result<Vec<(String, Vec<u8>)>> {
    // Each run of words with the exact length of its JSON.
    let mut runs: Vec<(Vec<WordPostings>, usize)> = Vec::new();
    for (word, postings) in words {
        // `"word":[1,2,3],` and the braces: the JSON's exact length.
        let bytes = serde_json::to_string(&word)?.len()
            + postings.iter().map(|&n| digits(n) + 1).sum::<usize>()
            + postings.is_empty() as usize
            + 3;
        match runs.last_mut() {
            Some((run, size)) if *size + bytes < max_bytes => {
                *size += bytes;
                run.push((word, postings));
            }
            _ => runs.push((vec![(word, postings)], bytes + 1)),
        }
    }
    let mut keys = Vec::with_capacity(runs.len());
    let mut last: Option<&str> = None;
    for (run, _) in &runs {
        keys.push(match (last, run.first()) {
            (Some(last), Some((first, _))) => separator(last, first).to_owned(),
            _ => String::new(),
        });
        last = run.last().map(|(w, _)| w.as_str());
    }
    let json: Vec<Vec<u8>> = runs
        .par_iter()
        .map(|(run, size)| shard_json(run, *size))
        .collect::<Result<_, _>>()
        .context("serialising a search shard")?;
    Ok(keys.into_iter().zip(json).collect())
}

/// The JSON of a [`Shard`] of `words` (sorted, each once), `size` bytes long: written word by
/// word as serde writes the map, without building the map.
fn shard_json(words: &[WordPostings], size: usize) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(size);
    out.push(b'{');
    for (i, (word, postings)) in words.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, word)?;
        out.push(b':');
        serde_json::to_writer(&mut out, postings)?;
    }
    out.push(b'}');
    Ok(out)
}

/// Builds the index files of `sources` (oldest first), splitting shards over `max_bytes`,
/// remembering nothing.
pub fn build(sources: &[Source<'_>], max_bytes: usize) -> Result<Files> {
    Runs::new(sources, &NoMemo)?.build(max_bytes, &NoMemo)
}

/// The files of the index of `sources` with `words` (sorted, with their encoded postings).
fn files(sources: &[Source<'_>], words: Vec<WordPostings>, max_bytes: usize) -> Result<Files> {
    let mut files = BTreeMap::new();
    let mut shards = Vec::new();
    let named: Vec<(String, String, Vec<u8>)> = shard(words, max_bytes)?
        .into_par_iter()
        .map(|(key, json)| (key, format!("w/{}.json", hash(&[&json])), json))
        .collect();
    for (key, name, json) in named {
        shards.push((key, name.clone()));
        ensure!(
            files.insert(name, json).is_none(),
            "two search shards have the same hash: make HASH_DIGITS larger"
        );
    }
    let mut folders = Vec::new();
    for (r, run) in sources.chunks(RUN).enumerate() {
        let fragments: Vec<Vec<u8>> = run
            .iter()
            .map(|s| serde_json::to_vec(&s.doc))
            .collect::<Result<_, _>>()
            .context("serialising a search fragment")?;
        // The run's first number is hashed too: a folder's name says which articles it holds.
        let first = (r * RUN).to_le_bytes();
        let mut parts = vec![first.as_slice()];
        parts.extend(fragments.iter().map(Vec::as_slice));
        let folder = format!("d-{}", hash(&parts));
        for (doc, json) in (r * RUN..).zip(fragments) {
            files.insert(format!("{folder}/{doc}.json"), json);
        }
        folders.push(format!("{folder}/{DOC_PLACEHOLDER}.json"));
    }
    let entry = Entry {
        version: FORMAT_VERSION,
        docs: sources.len(),
        prefix: MIN_PREFIX,
        shards,
        per_folder: RUN,
        fragments: folders,
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

    #[test]
    fn estonian_letters_are_indexed_as_readers_type_them() {
        let fold = [
            ('õ', 'o'),
            ('ä', 'a'),
            ('ö', 'o'),
            ('ü', 'u'),
            ('š', 's'),
            ('ž', 'z'),
        ];
        let sources = [Source {
            fold: &fold,
            ..source(0, "Tõhus šabloon", "Žürii mõõdab")
        }];
        let index = index_run(&sources);
        for word in ["tohus", "sabloon", "zurii", "moodab"] {
            assert!(index.contains_key(word), "{word}: {:?}", index.keys());
        }
        assert!(!index.contains_key("tõhus"));
    }

    fn source<'a>(n: usize, title: &str, body: &'a str) -> Source<'a> {
        Source {
            doc: Doc {
                url: format!("/insights/a{n}"),
                title: title.to_owned(),
                excerpt: format!("Excerpt {n}"),
                author: "Ada Lind".to_owned(),
            },
            body,
            fold: &[],
        }
    }

    fn entry(files: &Files) -> Entry {
        serde_json::from_slice(&files.files[&files.entry]).expect("the entry parses")
    }

    fn shard_at(files: &Files, i: usize) -> Shard {
        let name = &entry(files).shards[i].1;
        serde_json::from_slice(&files.files[name]).expect("a shard parses")
    }

    /// The shards holding `word` and its postings, looked up the way the browser looks.
    fn find(files: &Files, word: &str) -> Vec<(usize, Vec<u32>)> {
        entry(files)
            .shards_for(word, false)
            .into_iter()
            .filter_map(|i| shard_at(files, i).remove(word).map(|p| (i, p)))
            .collect()
    }

    /// Every word starting with `prefix`, from the shards the browser would fetch.
    fn by_prefix(files: &Files, prefix: &str) -> Vec<String> {
        entry(files)
            .shards_for(prefix, true)
            .into_iter()
            .flat_map(|i| shard_at(files, i).into_keys())
            .filter(|w| w.starts_with(prefix))
            .collect()
    }

    fn sources_of<'a>(bodies: &'a [String], title: &str) -> Vec<Source<'a>> {
        bodies
            .iter()
            .enumerate()
            .map(|(n, body)| source(n, title, body))
            .collect()
    }

    /// `n` articles whose bodies have many words, `a000 … a{n}`, `b000 …` and so on.
    fn many_words(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| {
                (0..60)
                    .map(|w| format!("{}{:03}", char::from(b'a' + (w % 6) as u8), w * 7 + i))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn words_are_lowercased_runs_of_letters_and_digits() {
        let found: Vec<String> = words("Kubernetes' cost, in 2024: 95%!").collect();
        assert_eq!(found, ["kubernetes", "cost", "in", "2024", "95"]);
    }

    #[test]
    fn every_word_is_found_in_its_shard_and_prefixes_in_theirs() {
        let bodies = many_words(30);
        let mut sources = sources_of(&bodies, "Kubernetes cost");
        sources[0].body = "a kubelet in Øresund, 95 nodes";
        let files = build(&sources, 2_000).expect("builds");
        let entry = entry(&files);
        assert!(entry.shards.len() > 5, "{:?}", entry.shards);
        assert_eq!(entry.shards[0].0, "");
        let mut all: Vec<String> = Vec::new();
        for i in 0..entry.shards.len() {
            let shard = shard_at(&files, i);
            let first = shard.keys().next().expect("a shard has words");
            let key = &entry.shards[i].0;
            assert!(first.starts_with(key.as_str()), "{key} {first}");
            if let Some(before) = all.last() {
                // The shortest prefix of the first word after the shard before.
                assert!(key.as_str() > before.as_str(), "{key} after {before}");
                let shorter = key.char_indices().last().map_or("", |(at, _)| &key[..at]);
                assert!(shorter <= before.as_str(), "{key} is not the shortest");
            }
            all.extend(shard.keys().cloned());
        }
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(all, sorted, "shards hold consecutive words");
        for word in &all {
            assert_eq!(find(&files, word).len(), 1, "{word}");
        }
        assert_eq!(
            find(&files, "kubelet"),
            [(entry.shards_for("kubelet", false)[0], vec![0, 1])]
        );
        assert_eq!(find(&files, "øresund")[0].1, [0, 1]);
        assert!(find(&files, "kube").is_empty());
        assert_eq!(by_prefix(&files, "kube"), ["kubelet", "kubernetes"]);
        let b_words: Vec<&String> = all.iter().filter(|w| w.starts_with('b')).collect();
        assert!(b_words.len() > 50);
        assert_eq!(by_prefix(&files, "b").len(), b_words.len());
        assert_eq!(entry.docs, 30);
        assert_eq!(entry.prefix, MIN_PREFIX);
        assert_eq!(entry.version, FORMAT_VERSION);
    }

    #[test]
    fn the_merge_in_ranges_equals_one_merge_of_every_run() {
        let bodies = many_words(3 * RUN + 17);
        let sources = sources_of(&bodies, "Kubernetes cost");
        let encoded: Vec<Vec<u8>> = sources
            .chunks(RUN)
            .map(|run| encode_run(&index_run(run)))
            .collect();
        let runs: Vec<Vec<RunWord<'_>>> = encoded
            .iter()
            .map(|bytes| decode_run(bytes).expect("a run"))
            .collect();
        let words: usize = runs.iter().map(Vec::len).sum();
        assert!(
            words > 4 * MERGE_SAMPLE_STEP * MERGE_PARTS_PER_THREAD,
            "enough words for several ranges: {words}"
        );
        let whole: Vec<(usize, &[RunWord<'_>])> =
            runs.iter().map(Vec::as_slice).enumerate().collect();
        let expected = merge_slices(&whole);
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            assert_eq!(pool.install(|| merge(&runs)), expected, "{threads} threads");
        }
    }

    #[test]
    fn a_shard_is_the_json_of_its_map_and_as_long_as_counted() {
        let bodies = [
            "quote\"d back\\slash ünïcode 数据 tab\there".to_owned(),
            "quote ünïcode again".to_owned(),
        ];
        let sources = sources_of(&bodies, "A \"title\"");
        let files = build(&sources, usize::MAX).expect("builds");
        let name = &entry(&files).shards[0].1;
        let json = &files.files[name];
        let map: Shard = serde_json::from_slice(json).expect("a shard parses");
        assert!(map.contains_key("数据") && map.contains_key("ünïcode"));
        assert_eq!(json, &serde_json::to_vec(&map).expect("serialises"));
        let words: Vec<WordPostings> = map.into_iter().collect();
        let sharded = shard(words, usize::MAX).expect("one shard");
        assert_eq!(&sharded[0].1, json);
        assert_eq!(
            sharded[0].1.capacity(),
            json.len(),
            "the size counted is exact"
        );
    }

    #[test]
    fn a_shard_over_the_size_limit_splits() {
        let bodies = many_words(20);
        let sources = sources_of(&bodies, "T");
        let whole = build(&sources, usize::MAX).expect("builds");
        assert_eq!(entry(&whole).shards.len(), 1);
        let size = whole.files[&entry(&whole).shards[0].1].len();
        let limit = size / 4;
        let split = build(&sources, limit).expect("builds");
        let shards = entry(&split).shards;
        assert!((4..=6).contains(&shards.len()), "{} shards", shards.len());
        for (key, name) in &shards {
            assert!(
                split.files[name].len() <= limit,
                "shard {key} is over the limit"
            );
        }
        // A word larger than the limit on its own is a shard of its own.
        let common = ["the"; 20].join(" ");
        let sources: Vec<Source<'_>> = (0..400).map(|n| source(n, "T", &common)).collect();
        let files = build(&sources, 1_000).expect("builds");
        let entry = entry(&files);
        let the = entry.shards_for("the", false)[0];
        assert_eq!(shard_at(&files, the).len(), 1);
        assert!(files.files[&entry.shards[the].1].len() > 1_000);
    }

    #[test]
    fn postings_are_delta_coded_with_the_weights() {
        let sources = [
            source(
                0,
                "Kafka streams",
                "kafka kafka kafka kafka kafka kafka kafka",
            ),
            source(1, "Other", "nothing here"),
            source(2, "Other", "kafka once"),
        ];
        let files = build(&sources, SHARD_MAX_BYTES).expect("builds");
        // Title 20 plus the body's seven repeats capped at 5; then one body mention.
        assert_eq!(find(&files, "kafka"), [(0, vec![0, 25, 2, 1])]);
    }

    #[test]
    fn a_word_s_postings_join_across_runs_in_article_order() {
        let bodies: Vec<String> = (0..RUN * 2 + 1)
            .map(|n| match n {
                1 | 2 => "kafka".to_owned(),
                n if n == RUN + 3 || n == RUN * 2 => "kafka kafka".to_owned(),
                n => format!("filler{n}"),
            })
            .collect();
        let files = build(&sources_of(&bodies, "Other"), SHARD_MAX_BYTES).expect("builds");
        let run = RUN as u32;
        assert_eq!(
            find(&files, "kafka"),
            [(0, vec![1, 1, 1, 1, run + 1, 2, run - 3, 2])]
        );
    }

    /// A memo in memory that counts the runs it was asked for and did not have.
    #[derive(Default)]
    struct Counting {
        kept: std::sync::Mutex<std::collections::HashMap<String, Vec<u8>>>,
        misses: std::sync::atomic::AtomicUsize,
    }

    impl Memo for Counting {
        fn key(&self, parts: &[&[u8]]) -> String {
            let mut all = Vec::new();
            for part in parts {
                all.extend_from_slice(&part.len().to_le_bytes());
                all.extend_from_slice(part);
            }
            format!("{}-{}", hash(&[&all]), all.len())
        }
        fn recall(&self, key: &str) -> Option<Vec<u8>> {
            let found = self.kept.lock().ok()?.get(key).cloned();
            if found.is_none() {
                self.misses
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            found
        }
        fn remember(&self, key: &str, value: &[u8]) -> Result<()> {
            if let Ok(mut kept) = self.kept.lock() {
                kept.insert(key.to_owned(), value.to_vec());
            }
            Ok(())
        }
    }

    impl Counting {
        /// Builds with this memo: the files, and how many runs were indexed.
        fn build(&self, sources: &[Source<'_>]) -> (Files, usize) {
            let before = self.misses.load(std::sync::atomic::Ordering::Relaxed);
            let files = Runs::new(sources, self)
                .and_then(|runs| runs.build(2_000, self))
                .expect("builds");
            let after = self.misses.load(std::sync::atomic::Ordering::Relaxed);
            (files, after - before)
        }
    }

    #[test]
    fn a_changed_article_indexes_its_run_again_and_the_index_equals_a_fresh_one() {
        let bodies = many_words(RUN * 3 + 5);
        let mut sources = sources_of(&bodies, "Kafka");
        let memo = Counting::default();
        let (first, indexed) = memo.build(&sources);
        assert_eq!(indexed, 4, "every run, the first time");
        assert_eq!(first, build(&sources, 2_000).expect("builds"));
        assert_eq!(memo.build(&sources), (first.clone(), 0));

        let edited = format!("{} zookeeper", bodies[RUN + 1]);
        sources[RUN + 1].body = &edited;
        let (second, indexed) = memo.build(&sources);
        assert_eq!(indexed, 1, "the edited article's run only");
        assert_eq!(second, build(&sources, 2_000).expect("builds"));
        assert_eq!(find(&second, "zookeeper")[0].1, [RUN as u32 + 1, 1]);

        // One article fewer at the start renumbers every run after it.
        sources.remove(0);
        let (third, indexed) = memo.build(&sources);
        assert_eq!(indexed, 4);
        assert_eq!(third, build(&sources, 2_000).expect("builds"));
    }

    #[test]
    fn a_damaged_run_in_the_memo_is_indexed_again() {
        let bodies = many_words(RUN + 3);
        let sources = sources_of(&bodies, "Kafka");
        let memo = Counting::default();
        let (first, _) = memo.build(&sources);
        if let Ok(mut kept) = memo.kept.lock() {
            for bytes in kept.values_mut() {
                bytes.truncate(bytes.len() - 3);
            }
        }
        let runs = Runs::new(&sources, &memo).expect("keys");
        assert_eq!(runs.build(2_000, &memo).expect("builds"), first);
    }

    #[test]
    fn fragments_round_trip() {
        let sources: Vec<Source<'_>> = (0..RUN + 3).map(|n| source(n, "Title", "body")).collect();
        let files = build(&sources, SHARD_MAX_BYTES).expect("builds");
        let entry = entry(&files);
        assert_eq!(entry.fragments.len(), 2, "a folder per run of articles");
        for (n, source) in sources.iter().enumerate() {
            let file = entry.fragment(n).expect("a fragment");
            let doc: Doc = serde_json::from_slice(&files.files[&file]).expect("parses");
            assert_eq!(doc, source.doc);
        }
        assert_eq!(entry.fragment(sources.len()), None);
        assert_eq!(files.entry_path(), format!("/search/{}", files.entry));
    }

    #[test]
    fn a_new_or_renamed_article_renames_its_own_fragment_folder_only() {
        let sources: Vec<Source<'_>> = (0..2 * RUN + 5)
            .map(|n| source(n, "Title", "body"))
            .collect();
        let before = build(&sources, SHARD_MAX_BYTES).expect("builds");
        let folders = entry(&before).fragments;

        let mut renamed = sources.clone();
        renamed[RUN + 1].doc.title = "Renamed".to_owned();
        let after = entry(&build(&renamed, SHARD_MAX_BYTES).expect("builds")).fragments;
        assert_eq!(after[0], folders[0]);
        assert_ne!(after[1], folders[1], "the renamed article's folder");
        assert_eq!(after[2], folders[2]);

        let mut added = sources.clone();
        added.push(source(2 * RUN + 5, "New", "body"));
        let grown = build(&added, SHARD_MAX_BYTES).expect("builds");
        let after = entry(&grown).fragments;
        assert_eq!(
            after[..2],
            folders[..2],
            "the full folders keep their names"
        );
        assert_ne!(after[2], folders[2]);
        // The files of the full folders are byte for byte what they were.
        let full: Vec<&str> = folders[..2]
            .iter()
            .filter_map(|pattern| pattern.split_once('/').map(|(folder, _)| folder))
            .collect();
        let kept: Vec<_> = before
            .files
            .iter()
            .filter(|(name, _)| full.iter().any(|folder| name.starts_with(folder)))
            .collect();
        assert_eq!(kept.len(), 2 * RUN);
        for (name, bytes) in kept {
            assert_eq!(grown.files.get(name), Some(bytes), "{name}");
        }
    }

    #[test]
    fn names_change_with_the_content_and_identical_builds_are_identical() {
        let bodies = many_words(10);
        let sources = sources_of(&bodies, "Kafka");
        let first = build(&sources, 2_000).expect("builds");
        assert_eq!(first, build(&sources, 2_000).expect("builds"));

        let mut changed = sources.clone();
        let extended = format!("{} zzz", bodies[9]);
        changed[9].body = &extended;
        let second = build(&changed, 2_000).expect("builds");
        let (a, b) = (entry(&first), entry(&second));
        assert_ne!(first.entry, second.entry);
        // The shards before the new word keep their names.
        assert_eq!(a.shards[0], b.shards[0]);
        assert_ne!(a.shards.last(), b.shards.last());
        assert_eq!(a.fragments, b.fragments, "no fragment changed");

        changed[9].doc.title = "Renamed".to_owned();
        let third = build(&changed, 2_000).expect("builds");
        assert_ne!(entry(&third).fragments, b.fragments);
        for files in [&first, &second, &third] {
            for (name, bytes) in &files.files {
                if !name.starts_with("d-") {
                    assert!(name.contains(&hash(&[bytes])), "{name}");
                }
            }
        }
    }
}
