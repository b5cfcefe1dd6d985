//! The content's redirects table ([`crate::content::redirects`]) written for every kind of
//! host, and read back from the output where a host is emulated:
//!
//! - `_redirects` ([`REDIRECTS_FILE`], Netlify and Cloudflare Pages syntax): a 301 per old
//!   path, both spellings (`/old` and `/old/`), a 410 for a path marked `gone`, and each
//!   other language's not-found page for the unknown paths under its prefix
//!   (`/et/* /et/404.html 404`);
//! - a page at each old path that is not gone (`old/index.html`) for hosts that read none of
//!   these: an immediate `<meta http-equiv="refresh">`, a canonical link to the target,
//!   `noindex`, and a visible link, in the site's language and words;
//! - a CloudFront Function ([`CLOUDFRONT_FUNCTION_FILE`], viewer request) answering the same
//!   301s and 410s in front of an S3 REST origin.
//!
//! `sitegen serve` and `sitegen deploy` read `_redirects` back ([`Rules::parse`]), so the
//! preview, the bucket and every CDN answer from one file the build wrote.

use std::collections::{BTreeSet, HashMap};

use anyhow::{Context, Result, bail, ensure};
use minijinja::context;

use crate::content::Content;
use crate::content::redirects::{Redirect, Target};
pub use crate::output_dir::{
    CLOUDFRONT_FUNCTION_FILE, CLOUDFRONT_PREVIEW_FUNCTION_FILE, REDIRECTS_FILE,
};
use crate::output_dir::{NOT_FOUND_FILE, route_file, route_url_path};
use crate::outputs;

/// The status of a path moved elsewhere.
pub const MOVED: u16 = 301;
/// The status of a path removed on purpose.
pub const GONE: u16 = 410;
/// The status of an unknown path, answered with a language's not-found page.
pub const NOT_FOUND: u16 = 404;

/// One line of `_redirects`: a request path, what answers it, and with which status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The request path, exactly as a host matches it (`/old`, `/old/`).
    pub from: String,
    /// The `Location` of a 301; for a 410, the page whose body is sent (`/404.html`).
    pub to: String,
    /// [`MOVED`] or [`GONE`].
    pub status: u16,
}

/// A language's not-found page: the body of the 404 answering an unknown path under
/// `prefix` (`/et`: `/et/missing` gets `/et/404.html`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    /// The language's path prefix (`/et`).
    pub prefix: String,
    /// Its not-found page (`/et/404.html`).
    pub page: String,
}

/// The rules of `_redirects`, by request path.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    rules: Vec<Rule>,
    by_path: HashMap<String, usize>,
    not_found: Vec<NotFound>,
}

impl Rules {
    /// The rules for `table`: each old path in both spellings.
    pub fn of(table: &[Redirect]) -> Self {
        let mut rules = Vec::new();
        for redirect in table {
            let (to, status) = match &redirect.to {
                Target::Page(page) => (location(page), MOVED),
                Target::Url(url) => (url.clone(), MOVED),
                Target::Gone => (format!("/{NOT_FOUND_FILE}"), GONE),
            };
            for from in spellings(&redirect.from) {
                rules.push(Rule {
                    from,
                    to: to.clone(),
                    status,
                });
            }
        }
        Self::from_rules(rules)
    }

    /// These rules and, for each of `prefixes` (`/et`), the language's not-found page for
    /// the unknown paths under it. Hosts that read `_redirects` serve a file before such a
    /// rule, so it answers only what the output does not have.
    pub fn with_not_found<'a>(mut self, prefixes: impl IntoIterator<Item = &'a str>) -> Self {
        self.not_found
            .extend(prefixes.into_iter().map(|prefix| NotFound {
                prefix: prefix.to_owned(),
                page: format!("{prefix}/{NOT_FOUND_FILE}"),
            }));
        self
    }

    fn from_rules(rules: Vec<Rule>) -> Self {
        let mut by_path = HashMap::new();
        for (i, rule) in rules.iter().enumerate() {
            // As the hosts do: the first rule for a path wins.
            by_path.entry(rule.from.clone()).or_insert(i);
        }
        Self {
            rules,
            by_path,
            not_found: Vec::new(),
        }
    }

    /// Reads a `_redirects` file: `from to [status]` per line, `#` comments, status 301 when
    /// left out. Only exact paths with the statuses [`MOVED`] and [`GONE`], and a folder's
    /// not-found page (`/et/* /et/404.html 404`) are understood; anything else is refused
    /// with its line, so nothing is answered differently than the file says.
    pub fn parse(text: &str) -> Result<Self> {
        let mut rules = Vec::new();
        let mut not_found = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.split_whitespace().collect();
            if let [from, to, status] = parts.as_slice()
                && status.parse() == Ok(NOT_FOUND)
            {
                let prefix = from.strip_suffix("/*").filter(|p| {
                    p.starts_with('/')
                        && !p.contains([':', '*'])
                        && to.starts_with(&format!("{p}/"))
                });
                let Some(prefix) = prefix else {
                    bail!(
                        "{REDIRECTS_FILE}:{}: a 404 rule gives a folder's not-found page \
                         (`/et/* /et/404.html 404`); found {line:?}",
                        n + 1
                    );
                };
                not_found.push(NotFound {
                    prefix: prefix.to_owned(),
                    page: (*to).to_owned(),
                });
                continue;
            }
            let (from, to, status) = match parts.as_slice() {
                [from, to] => (*from, *to, MOVED),
                [from, to, status] => match status.parse::<u16>() {
                    Ok(status @ (MOVED | GONE)) => (*from, *to, status),
                    _ => bail!(
                        "{REDIRECTS_FILE}:{}: status {status} is not one sitegen answers ({MOVED} or {GONE})",
                        n + 1
                    ),
                },
                _ => bail!(
                    "{REDIRECTS_FILE}:{}: expected `FROM TO [STATUS]`, found {line:?}",
                    n + 1
                ),
            };
            if !from.starts_with('/') || from.contains([':', '*']) {
                bail!(
                    "{REDIRECTS_FILE}:{}: {from:?} is not an exact path; sitegen answers exact paths only",
                    n + 1
                );
            }
            rules.push(Rule {
                from: from.to_owned(),
                to: to.to_owned(),
                status,
            });
        }
        let mut read = Self::from_rules(rules);
        read.not_found = not_found;
        Ok(read)
    }

    /// Reads `dir`'s `_redirects`; none when the output has no such file.
    pub fn load(dir: &std::path::Path) -> Result<Self> {
        let path = dir.join(REDIRECTS_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::parse(&text).with_context(|| format!("reading {}", path.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// The rule answering the request path `path`, if any.
    pub fn get(&self, path: &str) -> Option<&Rule> {
        self.by_path.get(path).map(|&i| &self.rules[i])
    }

    /// Every rule, in the file's order.
    pub fn iter(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter()
    }

    /// The languages' not-found pages, in the file's order.
    pub fn not_found(&self) -> &[NotFound] {
        &self.not_found
    }

    /// The `Location` of the 301 answering the URL the file `file` is served at
    /// (`old/index.html`: `/old/`).
    pub fn location_of_file(&self, file: &str) -> Option<&str> {
        let path = match file.strip_suffix("index.html") {
            Some(dir) => format!("/{dir}"),
            None => format!("/{file}"),
        };
        self.get(&path)
            .filter(|rule| rule.status == MOVED)
            .map(|rule| rule.to.as_str())
    }

    /// The URL paths of the pages among `files` (`old/index.html`: `/old/`) that these rules
    /// do not answer: pages a visitor would find gone without anyone having said so.
    pub fn uncovered_pages<'a>(&self, files: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        files
            .into_iter()
            .filter(|file| file.ends_with(".html") && !self.covers_file(file))
            .map(|file| match file.strip_suffix("index.html") {
                Some(dir) => format!("/{dir}"),
                None => format!("/{file}"),
            })
            .collect()
    }

    /// The files a page removed from the output may have had, and that these rules still
    /// answer: the page at an old path that moves elsewhere, or one that is gone.
    pub fn covers_file(&self, file: &str) -> bool {
        let Some(dir) = file.strip_suffix("index.html") else {
            return self.get(&format!("/{file}")).is_some();
        };
        let path = format!("/{dir}");
        self.get(&path).is_some() || self.get(path.trim_end_matches('/')).is_some()
    }

    /// The `_redirects` text of these rules.
    pub fn to_text(&self) -> String {
        let mut text = String::from(
            "# Written by sitegen build from the content's aliases and redirects.yaml: one rule per\n\
             # spelling of each old path. Netlify serves a file before a rule it does not force\n\
             # (`301!`, which Cloudflare Pages refuses), so on Netlify the page left at the old\n\
             # path redirects the visitor at once. Cloudflare Pages answers no 410: it skips those\n\
             # lines, and a path that is gone is answered 404.\n",
        );
        for rule in &self.rules {
            text.push_str(&format!("{} {} {}\n", rule.from, rule.to, rule.status));
        }
        if !self.not_found.is_empty() {
            text.push_str(
                "# Each other language's not-found page for unknown paths under its prefix, last\n\
                 # (the first rule that matches wins). Netlify serves a file before these rules;\n\
                 # Cloudflare Pages skips them and finds the nearest 404.html itself.\n",
            );
        }
        for rule in &self.not_found {
            text.push_str(&format!("{}/* {} {NOT_FOUND}\n", rule.prefix, rule.page));
        }
        text
    }

    /// The CloudFront Function (viewer request) of the site: it answers these rules, maps a
    /// directory URL (`/about/`, `/about`) to its `index.html`, which a private bucket behind
    /// CloudFront (an S3 REST origin with origin access control) needs, and, with `previews`,
    /// serves `NAME.<domain>` from the objects under `previews/NAME/` while the site's own hosts
    /// never reach them. A distribution takes one viewer-request function per behaviour, so this
    /// one is the whole of it; it must fit in CloudFront's [`CLOUDFRONT_FUNCTION_MAX_BYTES`], and
    /// a table too large for it is an error.
    ///
    /// The table inline is this build's: the site's. A preview's own redirects are another
    /// build's, deployed later, so with [`PreviewHosts::redirects_store`] the function looks them
    /// up on a preview host in the KeyValueStore associated with it, where `sitegen deploy
    /// --preview NAME` writes them ([`crate::deploy::kvs`]); the site's hosts never read it.
    pub fn cloudfront_function(&self, previews: Option<PreviewHosts<'_>>) -> Result<String> {
        let table: serde_json::Map<String, serde_json::Value> = self
            .rules
            .iter()
            .filter(|rule| self.get(&rule.from) == Some(rule))
            .map(|rule| {
                let answer = if rule.status == GONE {
                    serde_json::json!([rule.status])
                } else {
                    serde_json::json!([rule.status, rule.to])
                };
                (rule.from.clone(), answer)
            })
            .collect();
        let table = serde_json::to_string(&table).context("serialising the redirects")?;
        let suffix = serde_json::to_string(
            &previews
                .map(|p| format!(".{}", p.domain))
                .unwrap_or_default(),
        )
        .context("serialising the preview domain")?;
        let store = previews.is_some_and(|p| p.redirects_store);
        let (import, handler, lookup) = if store {
            (
                "import cf from 'cloudfront';\n\
                 // Its KeyValueStore: site.yaml's preview_redirects_store.\n\
                 var PREVIEW_REDIRECTS = cf.kvs();\n",
                "async function handler",
                // A miss throws: the preview has no redirect there, its page answers.
                "\x20   try {\n\
                 \x20     var found = (await PREVIEW_REDIRECTS.get(name + uri)).split(' ');\n\
                 \x20     rule = [+found[0], found[1]];\n\
                 \x20   } catch (e) {}\n",
            )
        } else {
            ("", "function handler", "")
        };
        let code = format!(
            "{import}\
             // Written by sitegen build: the redirects of the site's `_redirects`, directory URLs\n\
             // to their index.html, and previews (NAME.<preview domain> -> previews/NAME/), for a\n\
             // CloudFront distribution in front of an S3 REST origin. Associate it with the\n\
             // viewer-request event (runtime cloudfront-js-2.0). A function's code is limited to 10 KB.\n\
             var REDIRECTS = {table};\n\
             var PREVIEW_HOST_SUFFIX = {suffix};\n\
             var STATUS = {{ {MOVED}: 'Moved Permanently', {NOT_FOUND}: 'Not Found', {GONE}: 'Gone' }};\n\
             \n\
             // [status, location]: the answer; a preview's is never indexed.\n\
             function answer(rule, preview) {{\n\
             \x20 var response = {{ statusCode: rule[0], statusDescription: STATUS[rule[0]] }};\n\
             \x20 if (rule[1]) {{\n\
             \x20   response.headers = {{ location: {{ value: rule[1] }} }};\n\
             \x20 }}\n\
             \x20 if (preview) {{\n\
             \x20   response.headers = response.headers || {{}};\n\
             \x20   response.headers['x-robots-tag'] = {{ value: 'noindex' }};\n\
             \x20 }}\n\
             \x20 return response;\n\
             }}\n\
             \n\
             {handler}(event) {{\n\
             \x20 var request = event.request;\n\
             \x20 var uri = request.uri;\n\
             \x20 var host = request.headers && request.headers.host ? request.headers.host.value.toLowerCase() : '';\n\
             \x20 var prefix = '';\n\
             \x20 var rule;\n\
             \x20 if (PREVIEW_HOST_SUFFIX && host.length > PREVIEW_HOST_SUFFIX.length &&\n\
             \x20     host.slice(-PREVIEW_HOST_SUFFIX.length) === PREVIEW_HOST_SUFFIX) {{\n\
             \x20   var name = host.slice(0, -PREVIEW_HOST_SUFFIX.length);\n\
             \x20   if (!/^[a-z0-9-]+$/.test(name)) {{\n\
             \x20     return answer([{NOT_FOUND}], true);\n\
             \x20   }}\n\
             \x20   prefix = '/previews/' + name;\n\
             {lookup}\
             \x20 }} else if (uri === '/previews' || uri.indexOf('/previews/') === 0) {{\n\
             \x20   return answer([{NOT_FOUND}]);\n\
             \x20 }} else {{\n\
             \x20   rule = REDIRECTS[uri];\n\
             \x20 }}\n\
             \x20 if (rule) {{\n\
             \x20   return answer(rule, prefix !== '');\n\
             \x20 }}\n\
             \x20 if (uri.slice(-1) === '/') {{\n\
             \x20   uri += 'index.html';\n\
             \x20 }} else if (uri.lastIndexOf('.') < uri.lastIndexOf('/')) {{\n\
             \x20   uri += '/index.html';\n\
             \x20 }}\n\
             \x20 request.uri = prefix + uri;\n\
             \x20 return request;\n\
             }}\n"
        );
        ensure!(
            code.len() <= CLOUDFRONT_FUNCTION_MAX_BYTES,
            "the CloudFront Function would be {} bytes, over CloudFront's limit of {} bytes: its \
             table holds {} old paths (aliases, redirects.yaml, expired pages); collapse them \
             into fewer (a `redirects.yaml` entry per old folder rather than per page) or answer \
             them elsewhere",
            code.len(),
            CLOUDFRONT_FUNCTION_MAX_BYTES,
            self.rules.len()
        );
        Ok(code)
    }
}

/// The preview hosts the CloudFront Function routes ([`Rules::cloudfront_function`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreviewHosts<'a> {
    /// `preview_domain` of site.yaml: `NAME.<domain>` is the preview NAME.
    pub domain: &'a str,
    /// Whether site.yaml names a `preview_redirects_store`, the KeyValueStore holding each
    /// preview's own redirects (associated with the function).
    pub redirects_store: bool,
}

/// The CloudFront Function (viewer response) that adds `X-Robots-Tag: noindex` to every answer
/// to a host under `preview_domain` (`pr-7.preview.example.com`), and to no other: associated
/// with the viewer-response event beside [`Rules::cloudfront_function`], it keeps previews out of
/// search engines even for a file the meta tag cannot mark (a feed, a PDF, a redirect).
pub fn cloudfront_preview_response_function(preview_domain: &str) -> Result<String> {
    let suffix = serde_json::to_string(&format!(".{preview_domain}"))
        .context("serialising the preview domain")?;
    Ok(format!(
        "// Written by sitegen build: `X-Robots-Tag: noindex` on every answer to a preview host\n\
         // (NAME.<preview domain>). Associate it with the viewer-response event of the behaviour\n\
         // whose viewer request runs _cloudfront-redirects-function (runtime cloudfront-js-2.0).\n\
         var PREVIEW_HOST_SUFFIX = {suffix};\n\
         \n\
         function handler(event) {{\n\
         \x20 var response = event.response;\n\
         \x20 var headers = event.request.headers || {{}};\n\
         \x20 var host = headers.host ? headers.host.value.toLowerCase() : '';\n\
         \x20 if (host.length > PREVIEW_HOST_SUFFIX.length &&\n\
         \x20     host.slice(-PREVIEW_HOST_SUFFIX.length) === PREVIEW_HOST_SUFFIX) {{\n\
         \x20   response.headers['x-robots-tag'] = {{ value: 'noindex' }};\n\
         \x20 }}\n\
         \x20 return response;\n\
         }}\n"
    ))
}

/// The largest CloudFront Function code CloudFront accepts: 10 KB.
pub const CLOUDFRONT_FUNCTION_MAX_BYTES: usize = 10 * 1024;

/// The request paths a host may be asked for an old route: `/old` and `/old/`.
fn spellings(route: &str) -> Vec<String> {
    let trimmed = route.trim_end_matches('/');
    if trimmed.is_empty() {
        return vec!["/".to_owned()];
    }
    vec![trimmed.to_owned(), format!("{trimmed}/")]
}

/// Where a redirect to a page of the site points: its canonical URL path (`/about/`), so the
/// visitor lands in one hop, with the fragment written.
fn location(page: &str) -> String {
    let (route, fragment) = page
        .split_once('#')
        .map_or((page, None), |(r, f)| (r, Some(f)));
    let path = route_url_path(route).unwrap_or_else(|_| route.to_owned());
    match fragment {
        Some(fragment) => format!("{path}#{fragment}"),
        None => path,
    }
}

/// Every file the redirects add to the output, by name: `_redirects`, the CloudFront
/// Function, and the page at each old path that is not gone.
pub fn files(content: &Content) -> Result<Vec<(String, Vec<u8>)>> {
    let prefixes = content.translation_prefixes();
    let rules = Rules::of(&content.redirects).with_not_found(prefixes.iter().map(String::as_str));
    let mut files = vec![
        (REDIRECTS_FILE.to_owned(), rules.to_text().into_bytes()),
        (
            CLOUDFRONT_FUNCTION_FILE.to_owned(),
            rules
                .cloudfront_function(content.settings.preview_domain.as_deref().map(|domain| {
                    PreviewHosts {
                        domain,
                        redirects_store: content.settings.preview_redirects_store.is_some(),
                    }
                }))?
                .into_bytes(),
        ),
    ];
    if let Some(domain) = &content.settings.preview_domain {
        files.push((
            CLOUDFRONT_PREVIEW_FUNCTION_FILE.to_owned(),
            cloudfront_preview_response_function(domain)?.into_bytes(),
        ));
    }
    let env = outputs::environment()?;
    let base = outputs::parse_base_url(&content.settings.base_url)?;
    let words = &content.settings.moved;
    let mut written = BTreeSet::new();
    for redirect in &content.redirects {
        let (href, canonical, label) = match &redirect.to {
            Target::Gone => continue,
            Target::Page(page) => {
                let href = location(page);
                let canonical = base
                    .join(href.trim_start_matches('/'))
                    .with_context(|| format!("{href:?} does not form a URL"))?;
                let label = href.split('#').next().unwrap_or_default().to_owned();
                (href, canonical.to_string(), label)
            }
            Target::Url(url) => (url.clone(), url.clone(), words.external_link.clone()),
        };
        let file = route_file(&redirect.from);
        if !written.insert(file.clone()) {
            continue;
        }
        let html = outputs::render(
            &env,
            "moved.html.j2",
            context! {
                lang => content.settings.language.clone(),
                title => words.title.clone(),
                lead => words.lead.clone(),
                href,
                canonical,
                label,
            },
        )?;
        files.push((file, html.into_bytes()));
    }
    Ok(files)
}

/// The entries whose page at the old path would take the place of another file of the output
/// (`/404.html`, `/about/index.html`), or need a folder where the output has a file
/// (`/feed.xml` is the folder `feed.xml/` of its page): each reported where it is written.
/// `files` is every file of the output, the redirects' own pages included.
pub fn clashes<'a>(
    table: &[Redirect],
    files: impl IntoIterator<Item = &'a str>,
) -> Vec<crate::content::ContentError> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for file in files {
        *count.entry(file).or_default() += 1;
    }
    table
        .iter()
        .filter(|redirect| redirect.to != Target::Gone)
        .filter_map(|redirect| {
            let file = route_file(&redirect.from);
            let taken = count.get(file.as_str()).is_some_and(|&n| n > 1);
            let folder = std::iter::successors(Some(file.as_str()), |f| {
                f.rsplit_once('/').map(|(dir, _)| dir)
            })
            .skip(1)
            .find(|dir| count.contains_key(dir));
            let clash = if taken { Some(file.as_str()) } else { folder }?;
            Some(redirect.error(format!(
                "`{}` is the file `{clash}` of the site, which the page left at the old path \
                 would replace: an old path must be a path no page or file has",
                redirect.from
            )))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> crate::content::ContentError {
        crate::content::ContentError {
            file: "content/redirects.yaml".into(),
            line: Some(1),
            column: Some(1),
            message: String::new(),
        }
    }

    fn moved(from: &str) -> Redirect {
        Redirect {
            from: from.into(),
            to: Target::Page("/about".into()),
            alias: false,
            at: at(),
        }
    }

    #[test]
    fn an_old_path_that_is_a_file_of_the_output_is_reported_where_it_is_written() {
        let table = [moved("/404.html"), moved("/feed.xml"), moved("/old")];
        let files = [
            "404.html",
            "404.html",
            "feed.xml",
            "feed.xml/index.html",
            "old/index.html",
        ];
        let found: Vec<String> = clashes(&table, files)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            found,
            [
                "content/redirects.yaml:1:1: `/404.html` is the file `404.html` of the site, which the page left at the old path would replace: an old path must be a path no page or file has",
                "content/redirects.yaml:1:1: `/feed.xml` is the file `feed.xml` of the site, which the page left at the old path would replace: an old path must be a path no page or file has",
            ]
        );
    }

    #[test]
    fn the_rules_read_back_as_they_were_written() {
        let table = vec![
            Redirect {
                from: "/old".into(),
                to: Target::Page("/about#team".into()),
                alias: true,
                at: at(),
            },
            Redirect {
                from: "/gone".into(),
                to: Target::Gone,
                alias: false,
                at: at(),
            },
            Redirect {
                from: "/partners".into(),
                to: Target::Url("https://partners.example.com/".into()),
                alias: false,
                at: at(),
            },
        ];
        let rules = Rules::of(&table).with_not_found(["/et"]);
        let text = rules.to_text();
        assert!(text.contains("\n/old /about/#team 301\n/old/ /about/#team 301\n"));
        assert!(text.contains("\n/gone /404.html 410\n/gone/ /404.html 410\n"));
        assert!(text.ends_with("\n/et/* /et/404.html 404\n"), "{text}");
        let read = Rules::parse(&text).expect("parses");
        assert_eq!(
            read.iter().collect::<Vec<_>>(),
            rules.iter().collect::<Vec<_>>()
        );
        assert_eq!(
            read.not_found(),
            [NotFound {
                prefix: "/et".into(),
                page: "/et/404.html".into()
            }]
        );
        assert!(read.covers_file("old/index.html"));
        assert!(read.covers_file("gone/index.html"));
        assert!(!read.covers_file("about/index.html"));
    }

    #[test]
    fn rules_sitegen_cannot_answer_exactly_are_refused_with_their_line() {
        let err = Rules::parse("# c\n/a /b 302\n")
            .map(|_| ())
            .expect_err("refused");
        assert_eq!(
            err.to_string(),
            "_redirects:2: status 302 is not one sitegen answers (301 or 410)"
        );
        let err = Rules::parse("/blog/* /insights/:splat\n")
            .map(|_| ())
            .expect_err("refused");
        assert!(err.to_string().starts_with("_redirects:1: "), "{err}");
        let err = Rules::parse("/a /b 301\n/et/* /404.html 404\n")
            .map(|_| ())
            .expect_err("refused");
        assert!(
            err.to_string().starts_with("_redirects:2: a 404 rule"),
            "{err}"
        );
    }

    #[test]
    fn the_preview_redirects_lookup_costs_the_function_a_few_hundred_bytes_of_its_10_kb() {
        let rules = Rules::of(&[moved("/old")]);
        let size = |redirects_store| {
            rules
                .cloudfront_function(Some(PreviewHosts {
                    domain: "preview.example.com",
                    redirects_store,
                }))
                .expect("it fits")
                .len()
        };
        let (without, with) = (size(false), size(true));
        assert!(
            with > without && with - without < 300,
            "{without} -> {with} bytes"
        );
        assert!(with < CLOUDFRONT_FUNCTION_MAX_BYTES / 4, "{with} bytes");
    }
}
