//! An article file as the build reads it: front matter split from the body, parsed by the
//! positioned YAML loader, the body rendered; with a NUL byte, what follows it is the file's
//! translation, laid over it. Every error and every link placed by line and column is placed
//! inside the file it names, so that `file:line:col` always points at something.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sitegen::fuzzing::{ARTICLE, ROOT, TRANSLATION, read_article};

/// How many lines `text` has, a last one without its line break included, as YAML and
/// editors count them: CR LF, LF and a lone CR each end a line (a run found an error at line
/// 134 of a file of 44 LFs and 90 lone CRs, rightly).
fn lines(text: &str) -> usize {
    text.replace("\r\n", "\n").split(['\n', '\r']).count()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (source, translation) = match text.split_once('\0') {
        Some((source, translation)) => (source, Some(translation)),
        None => (text, None),
    };
    let (_, errors, places) = read_article(source, translation);
    let source_file = Path::new(ROOT).join(ARTICLE);
    let translation_file = Path::new(ROOT).join(TRANSLATION);
    for error in &errors {
        let file_text = if error.file == source_file {
            source
        } else if error.file == translation_file {
            translation.expect("an error in the translation is read with one")
        } else {
            panic!("an error in a file that was not read: {error}");
        };
        if let Some(line) = error.line {
            assert!(
                (1..=lines(file_text)).contains(&line),
                "{error}: line {line} of {} lines",
                lines(file_text)
            );
        }
        assert!(error.column.is_none_or(|c| c >= 1), "{error}");
        assert!(error.column.is_none() || error.line.is_some(), "{error}");
    }
    // The body the links are read from is the translation's, when there is one.
    let body_file = translation.unwrap_or(source);
    for (line, column) in places {
        assert!(
            (1..=lines(body_file)).contains(&line),
            "link at {line}:{column}"
        );
        assert!(column >= 1, "link at {line}:{column}");
    }
});
