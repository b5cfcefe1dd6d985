//! An article body rendered as the build renders it, then its links pointed at a
//! translation's pages as a translated site's are: the rendering keeps every link and picture
//! placed inside the body, and the rewriting changes nothing but the `href` of the links it
//! localizes (the HTML, read token by token, is otherwise the same).
#![no_main]

use std::collections::HashMap;
use std::sync::OnceLock;

use html5gum::{HtmlString, Token, Tokenizer};
use libfuzzer_sys::fuzz_target;
use sitegen::content::articles::render_markdown;
use sitegen::content::i18n::{local_href, localize_html};

/// The pages that have a version in the translation, as a site in two languages has them.
fn paths() -> &'static HashMap<String, String> {
    static PATHS: OnceLock<HashMap<String, String>> = OnceLock::new();
    PATHS.get_or_init(|| {
        [
            ("/", "/et"),
            ("/contact", "/et/contact"),
            ("/insights", "/et/insights"),
        ]
        .into_iter()
        .map(|(from, to)| (from.to_owned(), to.to_owned()))
        .collect()
    })
}

fn tokens(html: &str) -> Vec<Token> {
    Tokenizer::new(html)
        .map(|t| t.expect("infallible"))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(body) = std::str::from_utf8(data) else {
        return;
    };
    let rendered = render_markdown(body);
    for (href, offset) in &rendered.links {
        assert!(*offset <= body.len(), "link {href:?} at {offset}");
    }
    for (src, _, offset) in &rendered.images {
        assert!(*offset <= body.len(), "picture {src:?} at {offset}");
    }

    let localized = localize_html(&rendered.html, paths());
    let mut expected = tokens(&rendered.html);
    let href = HtmlString(b"href".to_vec());
    for token in &mut expected {
        if let Token::StartTag(tag) = token
            && let Some(value) = tag.attributes.get_mut(&href)
            && let Ok(text) = std::str::from_utf8(&value.value)
            && let Some(local) = local_href(text, paths())
        {
            value.value = HtmlString(local.into_bytes());
        }
    }
    assert_eq!(
        tokens(&localized),
        expected,
        "{}\n{localized}",
        rendered.html
    );
});
