//! What the host sends with each file of the output directory, defined once for the
//! preview server, the deploy and the CloudFront policy: the rules of `_headers` (Netlify /
//! Cloudflare Pages format, written by the build), and each file's `Content-Type`.

use std::io::ErrorKind;
use std::path::Path;

use anyhow::{Context, Result, bail};
use axum::http::{HeaderMap, HeaderName, HeaderValue};

/// The `Content-Type` of an output file, by its extension, with `charset=utf-8` on text
/// (every text file of the build is UTF-8). Unknown extensions are `application/octet-stream`.
pub fn content_type(file: &str) -> String {
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    with_charset(mime.essence_str())
}

/// `mime` with `; charset=utf-8` added when it is a text type without a charset.
pub fn with_charset(mime: &str) -> String {
    let textual = mime.starts_with("text/")
        || matches!(
            mime,
            "application/javascript" | "application/json" | "application/xml" | "image/svg+xml"
        );
    if textual && !mime.contains("charset") {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_owned()
    }
}

/// The rules of a `_headers` file.
#[derive(Debug, Default)]
pub struct HeaderRules {
    rules: Vec<Rule>,
}

#[derive(Debug)]
struct Rule {
    pattern: Pattern,
    set: Vec<(HeaderName, HeaderValue)>,
    /// `! Name` lines: headers removed from the response (Cloudflare Pages' "detach").
    remove: Vec<HeaderName>,
}

impl HeaderRules {
    /// Reads `path`; a missing file means no rules.
    pub fn load(path: &Path) -> Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text).with_context(|| format!("in {}", path.display())),
            Err(err) if err.kind() == ErrorKind::NotFound => Ok(Self::default()),
            Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// A path line starts a rule; indented `Name: value` lines below it belong to it; `#`
    /// starts a comment. Every malformed line is reported, one per line, as `line N: ...`.
    pub fn parse(text: &str) -> Result<Self> {
        let mut rules: Vec<Rule> = Vec::new();
        let mut errors = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let number = index + 1;
            if !raw.starts_with([' ', '\t']) {
                match Pattern::parse(line) {
                    Ok(pattern) => rules.push(Rule {
                        pattern,
                        set: Vec::new(),
                        remove: Vec::new(),
                    }),
                    Err(message) => errors.push(format!("line {number}: {message}")),
                }
                continue;
            }
            let Some(rule) = rules.last_mut() else {
                errors.push(format!(
                    "line {number}: header {line:?} comes before any path; put a path such as /* on the line above"
                ));
                continue;
            };
            if let Some(name) = line.strip_prefix('!') {
                match HeaderName::from_bytes(name.trim().as_bytes()) {
                    Ok(name) => rule.remove.push(name),
                    Err(_) => errors.push(format!("line {number}: invalid header name {name:?}")),
                }
                continue;
            }
            let Some((name, value)) = line.split_once(':') else {
                errors.push(format!(
                    "line {number}: expected `Name: value`, found {line:?}"
                ));
                continue;
            };
            let (name, value) = (name.trim(), value.trim());
            match (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                (Ok(name), Ok(value)) => rule.set.push((name, value)),
                (Err(_), _) => errors.push(format!("line {number}: invalid header name {name:?}")),
                (_, Err(_)) => {
                    errors.push(format!("line {number}: invalid value for header {name:?}"))
                }
            }
        }
        if errors.is_empty() {
            Ok(Self { rules })
        } else {
            bail!("{}", errors.join("\n"))
        }
    }

    /// The headers of every rule matching any of `paths`, each rule once and in file order.
    /// A header set by several rules gets their values joined with `, `, as on the CDN, and
    /// a header detached by a matching rule (`! Name`) is left out.
    pub fn resolve(&self, paths: &[&str]) -> Vec<(HeaderName, HeaderValue)> {
        let matching = self
            .rules
            .iter()
            .filter(|rule| paths.iter().any(|path| rule.pattern.matches(path)));
        let mut merged: Vec<(HeaderName, Vec<&HeaderValue>)> = Vec::new();
        let mut removed = Vec::new();
        for rule in matching {
            for (name, value) in &rule.set {
                match merged.iter_mut().find(|(n, _)| n == name) {
                    Some((_, values)) => values.push(value),
                    None => merged.push((name.clone(), vec![value])),
                }
            }
            removed.extend(rule.remove.iter());
        }
        merged
            .into_iter()
            .filter(|(name, _)| !removed.contains(&name))
            .filter_map(|(name, values)| {
                let joined = values
                    .iter()
                    .map(|v| v.as_bytes())
                    .collect::<Vec<_>>()
                    .join(&b", "[..]);
                HeaderValue::from_bytes(&joined).ok().map(|v| (name, v))
            })
            .collect()
    }

    /// Sets the headers of every rule matching any of `paths` on `headers` (see
    /// [`HeaderRules::resolve`]); they replace those already there, and detached ones are
    /// removed.
    pub fn apply(&self, paths: &[&str], headers: &mut HeaderMap) {
        for rule in self
            .rules
            .iter()
            .filter(|rule| paths.iter().any(|path| rule.pattern.matches(path)))
        {
            for name in &rule.remove {
                headers.remove(name);
            }
        }
        for (name, value) in self.resolve(paths) {
            headers.insert(name, value);
        }
    }

    /// The one value of header `name` for a file served under `paths`, if any rule sets it.
    pub fn value(&self, paths: &[&str], name: &HeaderName) -> Option<String> {
        self.resolve(paths)
            .into_iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.to_str().ok().map(str::to_owned))
    }

    /// The headers of the rules whose pattern matches every path (`/*`): what every response
    /// of the site carries, such as the security headers.
    pub fn site_wide(&self) -> Vec<(HeaderName, HeaderValue)> {
        let mut headers: Vec<(HeaderName, HeaderValue)> = Vec::new();
        for rule in self.rules.iter().filter(|r| r.pattern.is_everything()) {
            headers.extend(rule.set.iter().cloned());
        }
        headers
    }
}

/// A `_headers` path pattern: literal text, one `*` splat matching anything (slashes too),
/// and `:name` placeholders matching one path segment.
#[derive(Debug)]
struct Pattern {
    tokens: Vec<Token>,
}

#[derive(Debug, PartialEq, Eq)]
enum Token {
    Literal(String),
    Splat,
    Placeholder,
}

impl Pattern {
    fn parse(pattern: &str) -> Result<Self, String> {
        if pattern.starts_with("https://") {
            // Host-specific rules never match a local preview.
            return Ok(Self { tokens: Vec::new() });
        }
        if !pattern.starts_with('/') {
            return Err(format!(
                "path {pattern:?} must start with '/' (or be an https:// URL)"
            ));
        }
        if pattern.matches('*').count() > 1 {
            return Err(format!("path {pattern:?} has more than one '*'"));
        }
        let mut tokens = Vec::new();
        let mut literal = String::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '*' || c == ':' && literal.ends_with('/') {
                if !literal.is_empty() {
                    tokens.push(Token::Literal(std::mem::take(&mut literal)));
                }
                if c == '*' {
                    tokens.push(Token::Splat);
                } else {
                    while chars.next_if(|c| *c != '/').is_some() {}
                    tokens.push(Token::Placeholder);
                }
            } else {
                literal.push(c);
            }
        }
        if !literal.is_empty() {
            tokens.push(Token::Literal(literal));
        }
        Ok(Self { tokens })
    }

    /// Whether the pattern is `/*`, matching every path.
    fn is_everything(&self) -> bool {
        matches!(self.tokens.as_slice(), [Token::Literal(l), Token::Splat] if l == "/")
    }

    fn matches(&self, path: &str) -> bool {
        !self.tokens.is_empty() && match_tokens(&self.tokens, path)
    }
}

fn match_tokens(tokens: &[Token], path: &str) -> bool {
    match tokens.split_first() {
        None => path.is_empty(),
        Some((Token::Literal(text), rest)) => path
            .strip_prefix(text.as_str())
            .is_some_and(|tail| match_tokens(rest, tail)),
        Some((Token::Splat, rest)) => path
            .char_indices()
            .map(|(i, _)| i)
            .chain([path.len()])
            .any(|i| match_tokens(rest, &path[i..])),
        Some((Token::Placeholder, rest)) => {
            let end = path.find('/').unwrap_or(path.len());
            end > 0 && match_tokens(rest, &path[end..])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(p: &str) -> Pattern {
        Pattern::parse(p).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn splat_matches_any_rest_including_slashes() {
        let assets = pattern("/assets/*");
        assert!(assets.matches("/assets/app-abc123.js"));
        assert!(assets.matches("/assets/fonts/x.woff2"));
        assert!(assets.matches("/assets/"));
        assert!(!assets.matches("/assets"));
        assert!(!assets.matches("/about/"));
        assert!(pattern("/*").matches("/"));
        assert!(pattern("/*.html").matches("/404.html"));
        assert!(!pattern("/*.html").matches("/about/"));
    }

    #[test]
    fn literal_paths_match_exactly_and_placeholders_one_segment() {
        assert!(pattern("/about/").matches("/about/"));
        assert!(!pattern("/about/").matches("/about"));
        let service = pattern("/services/:category/");
        assert!(service.matches("/services/cloud-services/"));
        assert!(!service.matches("/services/cloud-services/devops/"));
        assert!(!service.matches("/services//"));
        assert!(!pattern("https://www.example.com/*").matches("/"));
    }

    #[test]
    fn malformed_header_files_list_every_bad_line() {
        let err = HeaderRules::parse(
            "  X-Early: 1\n/ok\n  Good: yes\n  no colon here\n  Bad Name: 1\nrelative/*\n/a*b*\n",
        )
        .map(|_| ())
        .expect_err("rejected");
        assert_eq!(
            err.to_string(),
            "\
line 1: header \"X-Early: 1\" comes before any path; put a path such as /* on the line above
line 4: expected `Name: value`, found \"no colon here\"
line 5: invalid header name \"Bad Name\"
line 6: path \"relative/*\" must start with '/' (or be an https:// URL)
line 7: path \"/a*b*\" has more than one '*'"
        );
    }

    #[test]
    fn headers_from_several_rules_are_joined_and_can_be_detached() {
        let rules = HeaderRules::parse(
            "/*\n  X-Robots-Tag: noindex\n  X-Frame-Options: DENY\n/about/\n  X-Robots-Tag: nosnippet\n  ! X-Frame-Options\n",
        )
        .unwrap_or_default();
        let mut headers = HeaderMap::new();
        headers.insert("x-frame-options", HeaderValue::from_static("SAMEORIGIN"));
        rules.apply(&["/about", "/about/"], &mut headers);
        let get = |name: &str| headers.get(name).map(|v| v.as_bytes().to_vec());
        assert_eq!(get("x-robots-tag"), Some(b"noindex, nosnippet".to_vec()));
        assert_eq!(get("x-frame-options"), None);
    }
}
