//! Checks that need the whole model: links lead to pages, images exist, slugs are unique.
//!
//! Most checks walk the JSON form of each file's model, so a new page or section is covered
//! without code here as long as it names its fields `href` for links and `image`, `logo` or
//! `avatar` for pictures.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde_json::Value;

use super::Content;
use super::loader::Loader;
use super::locate::join;
use super::pages::FixedPage;

/// Keys whose string value is a link (internal path or absolute URL).
const LINK_KEYS: &[&str] = &["href"];
/// Keys whose string value is a picture under the site's public directory.
const IMAGE_KEYS: &[&str] = &["image", "logo", "avatar"];
/// Keys whose value may legitimately be an empty string.
const MAY_BE_EMPTY: &[&str] = &["value"];

pub(crate) fn validate(loader: &mut Loader, content: &Content, public_dir: &Path) {
    let routes: BTreeSet<&str> = content.routes.iter().map(|r| r.path.as_str()).collect();
    for (file, value) in files(content) {
        let mut walker = Walker {
            loader,
            file: &file,
            routes: &routes,
            public_dir,
        };
        walker.walk(&value, "", None);
    }
    check_slugs(loader, content);
    content.forms.check(loader);
}

/// Each content file with the JSON form of the model read from it.
fn files(content: &Content) -> Vec<(String, Value)> {
    let mut files = vec![
        ("site.yaml".to_owned(), to_value(&content.settings)),
        ("countries.yaml".to_owned(), to_value(&content.countries)),
        ("forms.yaml".to_owned(), to_value(&content.forms)),
    ];
    for page in FixedPage::ALL {
        files.push((page.file(), content.pages.to_json(*page)));
    }
    for category in &content.services {
        files.push((
            format!("services/{}.yaml", category.slug),
            to_value(category),
        ));
    }
    files
}

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    // The model is plain data (strings, numbers, lists, structs): serialising cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

struct Walker<'a> {
    loader: &'a mut Loader,
    file: &'a str,
    routes: &'a BTreeSet<&'a str>,
    public_dir: &'a Path,
}

impl Walker<'_> {
    fn walk(&mut self, value: &Value, path: &str, key: Option<&str>) {
        match value {
            Value::Object(map) => {
                if let (Some(Value::String(title)), Some(Value::String(highlight))) =
                    (map.get("title"), map.get("highlight"))
                    && !title.contains(highlight.as_str())
                {
                    self.error(
                        &join(path, "highlight"),
                        format!("highlight `{highlight}` does not occur in the title `{title}`"),
                    );
                }
                for (k, v) in map {
                    self.walk(v, &join(path, k), Some(k));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.walk(item, &format!("{path}[{i}]"), key);
                }
            }
            Value::String(text) => self.string(text, path, key.unwrap_or_default()),
            _ => {}
        }
    }

    fn string(&mut self, text: &str, path: &str, key: &str) {
        if text.trim().is_empty() {
            if !MAY_BE_EMPTY.contains(&key) {
                self.error(path, format!("`{key}` must not be empty"));
            }
        } else if LINK_KEYS.contains(&key) {
            self.link(text, path);
        } else if IMAGE_KEYS.contains(&key) {
            self.image(text, path, key);
        }
    }

    fn link(&mut self, href: &str, path: &str) {
        if let Some(internal) = href.strip_prefix('/') {
            let route = internal.split(['#', '?']).next().unwrap_or_default();
            let route = format!("/{}", route.trim_end_matches('/'));
            if !self.routes.contains(route.as_str()) {
                let hint = closest(&route, self.routes)
                    .map(|r| format!("; did you mean `{r}`?"))
                    .unwrap_or_default();
                self.error(path, format!("link `{href}` leads to no page{hint}"));
            }
        } else if !(href.starts_with('#')
            || href.starts_with("https://")
            || href.starts_with("http://")
            || href.starts_with("mailto:")
            || href.starts_with("tel:"))
        {
            self.error(
                path,
                format!(
                    "link `{href}` is neither a site path starting with `/` nor an absolute URL"
                ),
            );
        }
    }

    fn image(&mut self, src: &str, path: &str, key: &str) {
        let Some(rel) = src.strip_prefix('/') else {
            self.error(
                path,
                format!("`{key}` `{src}` must be a path under site/public starting with `/`"),
            );
            return;
        };
        if rel.split('/').any(|part| part == "..") || !self.public_dir.join(rel).is_file() {
            self.error(
                path,
                format!(
                    "`{key}` `{src}` does not exist: expected the file {}",
                    self.public_dir.join(rel).display()
                ),
            );
        }
    }

    fn error(&mut self, path: &str, message: String) {
        self.loader.error(self.file, Some(path), message);
    }
}

/// The known route most like `route`, when one is close enough to be a likely typo.
fn closest<'a>(route: &str, routes: &BTreeSet<&'a str>) -> Option<&'a str> {
    routes
        .iter()
        .map(|r| (strsim::levenshtein(route, r), *r))
        .filter(|(distance, _)| *distance <= 3)
        .min()
        .map(|(_, r)| r)
}

fn is_slug(text: &str) -> bool {
    !text.is_empty()
        && text.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn check_slugs(loader: &mut Loader, content: &Content) {
    for category in &content.services {
        let file = format!("services/{}.yaml", category.slug);
        if !is_slug(&category.slug) {
            loader.error(
                &file,
                None,
                format!(
                    "file name `{}` is not a valid slug: use lowercase letters, digits and single hyphens",
                    category.slug
                ),
            );
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, sub) in category.sub_services.iter().enumerate() {
            let field = format!("sub_services[{i}].slug");
            if !is_slug(&sub.slug) {
                loader.error(
                    &file,
                    Some(&field),
                    format!(
                        "slug `{}` is not valid: use lowercase letters, digits and single hyphens",
                        sub.slug
                    ),
                );
            }
            if let Some(first) = seen.insert(&sub.slug, i) {
                loader.error(
                    &file,
                    Some(&field),
                    format!(
                        "duplicate slug `{}`: sub_services[{first}] already uses it",
                        sub.slug
                    ),
                );
            }
        }
    }
}
