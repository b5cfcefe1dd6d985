//! Previews on the same bucket as the site: `sitegen deploy --preview NAME` publishes a build
//! under `previews/NAME/` of the target, where the CloudFront Function the build writes serves
//! it to `NAME.<preview_domain>` ([`crate::redirects::Rules::cloudfront_function`]). A deploy of
//! the site never lists, deletes or guards the objects under `previews/`; a preview is removed
//! as a whole with `--remove-preview NAME`, and `--list-previews` shows them with their age and
//! size.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, anyhow, ensure};

use super::credentials::Found;
use super::s3::{Retry, S3Store};
use super::target::Target;
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

/// The address a preview answers at, when `site.yaml` of `content_dir` names a
/// `preview_domain`: `https://NAME.<preview_domain>/`.
pub fn url(content_dir: &Path, name: &str) -> Result<Option<String>> {
    #[derive(serde::Deserialize)]
    struct Site {
        #[serde(default)]
        preview_domain: Option<String>,
    }
    let file = content_dir.join(crate::content::SITE_FILE);
    let text =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let site: Site = crate::content::yaml::from_str(&text)
        .map_err(|e| anyhow!("{}: {}", file.display(), e.message))?;
    Ok(site
        .preview_domain
        .map(|domain| format!("https://{}.{domain}/", name.to_ascii_lowercase())))
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

/// Deletes every object of the preview `name` under `site`, and nothing else; answers how many.
pub fn remove(
    site: &Target,
    name: &str,
    endpoint: Option<&str>,
    found: &Found,
    retry: Retry,
) -> Result<usize> {
    let preview = target(site, name)?;
    let store = store(site, endpoint, found, retry)?;
    let keys: Vec<String> = store
        .list(&preview.prefix)
        .map_err(|e| anyhow!("listing {preview}: {e}"))?
        .into_keys()
        .collect();
    store
        .delete(&keys)
        .map_err(|e| anyhow!("deleting the {} objects of {preview}: {e}", keys.len()))?;
    Ok(keys.len())
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
}
