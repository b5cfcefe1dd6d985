//! Previews on the same bucket as the site: `sitegen deploy --preview NAME` publishes a build
//! under `previews/NAME/` of the target, where the CloudFront Function the build writes serves
//! it to `NAME.<preview_domain>` ([`crate::redirects::Rules::cloudfront_function`]), and, when
//! site.yaml names a `preview_redirects_store`, writes the preview's own redirects there
//! ([`super::kvs`]). A deploy of the site never lists, deletes or guards the objects under
//! `previews/`; a preview is removed as a whole (objects and redirects) with `--remove-preview
//! NAME`, and `--list-previews` shows them with their age and size.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, anyhow, ensure};

use super::credentials::{Credentials, Found};
use super::kvs::{Changed, KeyValueStore};
use super::s3::{Retry, S3Store};
use super::target::Target;
use crate::redirects::Rules;
use crate::serve::{PREVIEWS_DIR, is_preview_name};

/// Whether `key` (relative to the site's prefix) belongs to a preview.
pub fn is_under_previews(key: &str) -> bool {
    key.strip_prefix(PREVIEWS_DIR)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Where the preview `name` is published under `site`: `s3://BUCKET/PREFIX/previews/NAME/`.
pub fn target(site: &Target, name: &str) -> Result<Target> {
    ensure!(
        is_preview_name(name),
        "{name:?} is not a preview name: use letters, digits and '-' only (a branch such as \
         `new-pricing`, or `pr-42`)"
    );
    Ok(Target {
        bucket: site.bucket.clone(),
        prefix: format!(
            "{}{PREVIEWS_DIR}/{}/",
            site.prefix,
            name.to_ascii_lowercase()
        ),
    })
}

/// What site.yaml says of the previews: where they answer, and where their own redirects go.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
pub struct Settings {
    /// `preview_domain`: the preview NAME answers at `NAME.<preview_domain>`.
    #[serde(default)]
    pub preview_domain: Option<String>,
    /// `preview_redirects_store`: the KeyValueStore of each preview's own redirects.
    #[serde(default)]
    pub preview_redirects_store: Option<String>,
}

impl Settings {
    /// The settings of `site.yaml` in `content_dir`; none when there is no such file (a
    /// deploy run outside the repository).
    pub fn read(content_dir: &Path) -> Result<Self> {
        let file = content_dir.join(crate::content::SITE_FILE);
        let text = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(err) => return Err(err).with_context(|| format!("reading {}", file.display())),
        };
        // The other keys of site.yaml are the build's to check.
        crate::content::yaml::from_str(&text)
            .map_err(|e| anyhow!("{}: {}", file.display(), e.message))
    }

    /// The address the preview `name` answers at: `https://NAME.<preview_domain>/`.
    pub fn url(&self, name: &str) -> Option<String> {
        self.preview_domain
            .as_ref()
            .map(|domain| format!("https://{}.{domain}/", name.to_ascii_lowercase()))
    }

    /// The store of the previews' own redirects, if site.yaml names one.
    pub fn redirects_store(&self) -> Result<Option<KeyValueStore>> {
        self.preview_redirects_store
            .as_deref()
            .map(|arn| {
                arn.parse()
                    .map_err(|e| anyhow!("site.yaml: preview_redirects_store: {e}"))
            })
            .transpose()
    }
}

/// Writes the redirects of the preview build `dir` (its `_redirects`) as the preview `name`'s
/// in `store`, so the CloudFront Function answers them at its host.
pub fn publish_redirects(
    store: &KeyValueStore,
    name: &str,
    dir: &Path,
    credentials: &Credentials,
) -> Result<Changed> {
    let rules = Rules::load(dir)?;
    store.publish(name, &rules, credentials).with_context(|| {
        format!(
            "writing the redirects of the preview {name} to {}",
            store.arn
        )
    })
}

/// A preview in the bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// Its name (`pr-42`).
    pub name: String,
    /// How many objects it has.
    pub objects: usize,
    /// Their bytes.
    pub bytes: u64,
    /// When its newest object was written (ISO 8601), if the store says.
    pub updated: Option<String>,
}

impl Preview {
    /// How long ago its newest object was written, in the largest whole unit (`3 days`,
    /// `5 h`, `12 min`), if the store said when.
    pub fn age(&self, now: jiff::Timestamp) -> Option<String> {
        let updated: jiff::Timestamp = self.updated.as_deref()?.parse().ok()?;
        let seconds = now.as_second().saturating_sub(updated.as_second()).max(0);
        Some(match seconds {
            s if s >= 2 * 86_400 => format!("{} days", s / 86_400),
            s if s >= 3_600 => format!("{} h", s / 3_600),
            s if s >= 60 => format!("{} min", s / 60),
            s => format!("{s} s"),
        })
    }
}

/// The store of `site`'s bucket.
fn store(site: &Target, endpoint: Option<&str>, found: &Found, retry: Retry) -> Result<S3Store> {
    S3Store::new(
        endpoint,
        &found.region,
        &site.bucket,
        &found.credentials,
        retry,
    )
}

/// Every preview under `site`, by name.
pub fn list(
    site: &Target,
    endpoint: Option<&str>,
    found: &Found,
    retry: Retry,
) -> Result<Vec<Preview>> {
    let prefix = format!("{}{PREVIEWS_DIR}/", site.prefix);
    let objects = store(site, endpoint, found, retry)?
        .list(&prefix)
        .map_err(|e| anyhow!("listing {site}{PREVIEWS_DIR}/: {e}"))?;
    let mut previews: BTreeMap<String, Preview> = BTreeMap::new();
    for (key, object) in &objects {
        let Some((name, _)) = key[prefix.len()..].split_once('/') else {
            continue;
        };
        let preview = previews.entry(name.to_owned()).or_insert_with(|| Preview {
            name: name.to_owned(),
            objects: 0,
            bytes: 0,
            updated: None,
        });
        preview.objects += 1;
        preview.bytes += object.size;
        if object.last_modified > preview.updated {
            preview.updated.clone_from(&object.last_modified);
        }
    }
    Ok(previews.into_values().collect())
}

/// What `--remove-preview` removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removed {
    /// Objects deleted from the bucket.
    pub objects: usize,
    /// Keys of its redirects deleted from the store.
    pub redirects: usize,
}

/// Deletes every object of the preview `name` under `site`, and every key of its redirects
/// in `store`, and nothing else; answers how many.
pub fn remove(
    site: &Target,
    name: &str,
    endpoint: Option<&str>,
    store: Option<&KeyValueStore>,
    found: &Found,
    retry: Retry,
) -> Result<Removed> {
    let preview = target(site, name)?;
    let bucket = self::store(site, endpoint, found, retry)?;
    let keys: Vec<String> = bucket
        .list(&preview.prefix)
        .map_err(|e| anyhow!("listing {preview}: {e}"))?
        .into_keys()
        .collect();
    bucket
        .delete(&keys)
        .map_err(|e| anyhow!("deleting the {} objects of {preview}: {e}", keys.len()))?;
    let redirects = match store {
        Some(kvs) => kvs.remove(name, &found.credentials).with_context(|| {
            format!(
                "removing the redirects of the preview {name} from {}",
                kvs.arn
            )
        })?,
        None => 0,
    };
    Ok(Removed {
        objects: keys.len(),
        redirects,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_lives_under_previews_of_the_site_s_prefix() {
        let site: Target = "s3://www-example/site".parse().expect("a target");
        let preview = target(&site, "PR-7").expect("a name");
        assert_eq!(preview.to_string(), "s3://www-example/site/previews/pr-7/");
        assert!(target(&site, "feature/x").is_err());
        assert!(target(&site, "").is_err());
        assert!(is_under_previews("previews/pr-7/index.html"));
        assert!(!is_under_previews("previews.html"));
        assert!(!is_under_previews("about/index.html"));
    }

    #[test]
    fn a_preview_s_age_is_told_in_its_largest_whole_unit() {
        let preview = |updated: Option<&str>| Preview {
            name: "pr-7".into(),
            objects: 1,
            bytes: 1,
            updated: updated.map(str::to_owned),
        };
        let now: jiff::Timestamp = "2026-12-07T12:00:00Z".parse().expect("a time");
        let age = |updated| preview(Some(updated)).age(now);
        assert_eq!(age("2026-12-04T11:00:00.000Z").as_deref(), Some("3 days"));
        assert_eq!(age("2026-12-07T07:30:00Z").as_deref(), Some("4 h"));
        assert_eq!(age("2026-12-07T11:48:00Z").as_deref(), Some("12 min"));
        assert_eq!(preview(None).age(now), None);
    }
}
