//! The generated articles of the benchmarks: the scale scenario (`examples/scale.rs`) and the
//! comparison with other generators (`examples/peers.rs`) build the same ones, so their figures
//! speak of the same words.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};

/// Adds `extra` generated articles of about [`BODY_WORDS`] words each. A body is made of
/// sentences of the existing articles with about one word in [`RARE_SHARE`] replaced by a
/// made-up word drawn from a vocabulary of [`VOCABULARY`] with Zipf's law (the `r`th most common
/// word about `1/r` as often as the first), so the vocabulary grows with the number of articles
/// as real writing's does and the index is as large as a real one would be. Returns the
/// files written, `content/articles/generated-N.md`.
pub fn add_articles(content: &Path, extra: usize) -> Result<Vec<PathBuf>> {
    let dir = content.join("articles");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    // The sources only: a translation (`SLUG.et.md`) is the same article in other words.
    sources.retain(|p| {
        p.extension().is_some_and(|e| e == "md")
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !sitegen::content::translate::is_translation(n))
    });
    sources.sort();
    ensure!(!sources.is_empty(), "no articles in {}", dir.display());
    let mut front_matters = Vec::new();
    let mut sentences = Vec::new();
    for source in &sources {
        let text = std::fs::read_to_string(source)?;
        let (front, body) = text
            .strip_prefix("---\n")
            .and_then(|rest| rest.split_once("\n---\n"))
            .with_context(|| format!("front matter in {}", source.display()))?;
        front_matters.push(front.to_owned());
        sentences.extend(prose_sentences(body));
    }
    ensure!(!sentences.is_empty(), "no prose in {}", dir.display());
    let mut written = Vec::with_capacity(extra);
    for n in 0..extra {
        let mut rng = Rng(n as u64 ^ 0x5eed);
        let front: Vec<String> = front_matters[n % front_matters.len()]
            .lines()
            .map(|line| {
                if line.starts_with("title:") {
                    format!(
                        "title: Generated article {n} on {} and {}",
                        rng.rare_word(),
                        rng.rare_word()
                    )
                } else if line.starts_with("featured:") {
                    "featured: false".to_owned()
                } else {
                    line.to_owned()
                }
            })
            .collect();
        let mut body = String::new();
        let mut words = 0;
        let mut paragraphs = 0;
        while words < BODY_WORDS {
            if paragraphs % 4 == 1 {
                let heading: Vec<String> = (0..3).map(|_| rng.rare_word()).collect();
                body.push_str(&format!("## About {}\n\n", heading.join(" ")));
            }
            for _ in 0..4 + rng.below(3) {
                let sentence = &sentences[rng.below(sentences.len() as u64) as usize];
                for (i, word) in sentence.split(' ').enumerate() {
                    if i > 0 {
                        body.push(' ');
                    }
                    if rng.below(RARE_SHARE) == 0 && word.chars().all(char::is_alphabetic) {
                        body.push_str(&rng.rare_word());
                    } else {
                        body.push_str(word);
                    }
                    words += 1;
                }
                body.push(' ');
            }
            body.push_str("\n\n");
            paragraphs += 1;
        }
        let text = format!("---\n{}\n---\n\n{body}", front.join("\n"));
        let path = dir.join(format!("generated-{n}.md"));
        std::fs::write(&path, text)?;
        written.push(path);
    }
    Ok(written)
}

/// Words in a generated article's body, about.
const BODY_WORDS: usize = 900;
/// About one word in this many of a generated body is a made-up word of the vocabulary.
const RARE_SHARE: u64 = 8;
/// The made-up vocabulary's size.
const VOCABULARY: f64 = 60_000.0;

/// The sentences of a Markdown body's plain paragraphs: no headings, tables, lists, code,
/// links or footnotes, which a generated article could not reuse out of their place.
fn prose_sentences(body: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in body.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with(|c: char| c.is_alphabetic()) {
            continue;
        }
        for sentence in line.split_inclusive(". ") {
            let sentence = sentence.trim();
            if sentence.split(' ').count() >= 5
                && !sentence.contains(['[', ']', '`', '<', '|', '^', '*', '_'])
            {
                out.push(sentence.to_owned());
            }
        }
    }
    out
}

/// A small deterministic generator (SplitMix64): the same articles on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A word of the made-up vocabulary, the `r`th most common drawn about `1/r` as often.
    fn rare_word(&mut self) -> String {
        let unit = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        made_up_word(VOCABULARY.powf(unit) as usize)
    }
}

/// The made-up word of rank `rank`: two or more syllables, the first chosen by the rank's
/// lowest digits, so words spread over first letters as real ones do.
fn made_up_word(rank: usize) -> String {
    const ONSETS: [&str; 26] = [
        "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
        "st", "tr", "pl", "gr", "br", "ch", "sh", "th",
    ];
    const VOWELS: [&str; 5] = ["a", "e", "i", "o", "u"];
    const CODAS: [&str; 8] = ["", "n", "r", "l", "s", "t", "k", "m"];
    let syllables = ONSETS.len() * VOWELS.len() * CODAS.len();
    let mut word = String::new();
    let mut rest = rank;
    for i in 0.. {
        let s = rest % syllables;
        word.push_str(ONSETS[s % ONSETS.len()]);
        word.push_str(VOWELS[s / ONSETS.len() % VOWELS.len()]);
        word.push_str(CODAS[s / ONSETS.len() / VOWELS.len()]);
        rest /= syllables;
        if i >= 1 && rest == 0 {
            break;
        }
    }
    word
}
