//! The entry points of the fuzz targets (`sitegen/fuzz/`) that the public modules do not
//! already offer: the functions the build runs on what authors write, reachable from outside
//! the crate, so that the fuzzers exercise them and not a copy. Not an interface for anything
//! else.

use std::path::Path;

use crate::content::articles::{self, Article};
use crate::content::error::ContentError;
use crate::content::loader::Loader;

/// The content directory the fuzzed files are named under.
pub const ROOT: &str = "content";
/// The fuzzed article's file, under [`ROOT`].
pub const ARTICLE: &str = "articles/fuzz.md";
/// Its translation's file, under [`ROOT`].
pub const TRANSLATION: &str = "articles/fuzz.et.md";

/// An article file read as the build reads each ([`articles::parse_file`]: the front matter
/// through the positioned YAML loader, the body rendered), with `translation` (the text of
/// its translation, [`TRANSLATION`]) laid over it when given: the article, if it was read;
/// every error found; and the place (file, line, column) of every link and picture of the
/// body.
pub fn read_article(
    text: &str,
    translation: Option<&str>,
) -> (Option<Article>, Vec<ContentError>, Vec<(usize, usize)>) {
    let mut loader = Loader::new(Path::new(ROOT));
    let parsed = articles::parse_file(
        &mut loader,
        ARTICLE,
        "fuzz".to_owned(),
        text,
        translation.map(|words| (TRANSLATION, words)),
    );
    let (article, places) = match parsed {
        Some((article, links)) => {
            let mut places: Vec<_> = links.iter().map(|l| (l.line, l.column)).collect();
            places.extend(article.body_images.iter().map(|i| (i.line, i.column)));
            (Some(article), places)
        }
        None => (None, Vec::new()),
    };
    (article, loader.errors, places)
}
