//! `_redirects` round trip: a table of redirects as `content/redirects.yaml` writes it (each
//! entry checked as the content's are) and the languages' not-found pages, written as the
//! build writes `_redirects`, read back by the reader `sitegen serve` and `sitegen deploy`
//! use: the same rules, in the same order, and the same not-found pages.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sitegen::content::error::ContentError;
use sitegen::content::i18n::is_language_tag;
use sitegen::content::redirects::{Redirect, entry};
use sitegen::redirects::Rules;

#[derive(Debug, Arbitrary)]
struct Input {
    /// `redirects.yaml`'s entries: old path, target.
    entries: Vec<(String, String)>,
    /// The other languages' tags.
    languages: Vec<String>,
}

fuzz_target!(|input: Input| {
    let table: Vec<Redirect> = input
        .entries
        .iter()
        .filter_map(|(from, to)| entry(from, to).ok())
        .map(|(from, to)| Redirect {
            from,
            to,
            alias: false,
            at: ContentError {
                file: "content/redirects.yaml".into(),
                line: Some(1),
                column: Some(1),
                message: String::new(),
            },
        })
        .collect();
    let prefixes: Vec<String> = input
        .languages
        .iter()
        .filter(|tag| is_language_tag(tag) && tag.as_str() != "en")
        .map(|tag| form_contract::language_prefix("en", tag))
        .collect();
    let written = Rules::of(&table).with_not_found(prefixes.iter().map(String::as_str));
    let text = written.to_text();
    let read = Rules::parse(&text).unwrap_or_else(|e| panic!("{e:#}\n{text}"));
    assert_eq!(
        read.iter().collect::<Vec<_>>(),
        written.iter().collect::<Vec<_>>(),
        "{text}"
    );
    assert_eq!(read.not_found(), written.not_found(), "{text}");
    // Each path is answered by the first rule written for it.
    for rule in written.iter() {
        let first = written.iter().find(|r| r.from == rule.from);
        assert_eq!(read.get(&rule.from), first, "{text}");
    }
});
