//! The diff between the build and the bucket: what to upload and why, what is unchanged,
//! what to delete. Pure: it reads the two listings and decides; nothing is sent.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use super::local::{LocalObject, Phase};
use super::s3::RemoteObject;

/// Why an object is uploaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The bucket has no object under its key.
    New,
    /// The bucket's object has other bytes (its ETag is not the MD5 of the build's bytes).
    Changed,
    /// `--force`: uploaded whatever the bucket holds, e.g. to apply changed cache rules.
    Forced,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::New => "new",
            Reason::Changed => "changed",
            Reason::Forced => "forced",
        })
    }
}

/// One object to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload<'a> {
    /// The object, as the build has it.
    pub object: &'a LocalObject,
    /// Its key in the bucket: the prefix and the file.
    pub key: String,
    /// Why it is written.
    pub reason: Reason,
}

/// What a deploy does.
#[derive(Debug, Default)]
pub struct Plan<'a> {
    /// Objects to write, in upload order: by [`Phase`], then by key.
    pub uploads: Vec<Upload<'a>>,
    /// Objects the bucket already has byte for byte.
    pub unchanged: usize,
    /// Keys under the prefix that the build no longer has, sorted.
    pub deletions: Vec<String>,
}

impl Plan<'_> {
    /// The uploads of one phase.
    pub fn phase(&self, phase: Phase) -> impl Iterator<Item = &Upload<'_>> {
        self.uploads.iter().filter(move |u| u.object.phase == phase)
    }
}

/// Compares the build's objects with the bucket's listing under `prefix`.
pub fn diff<'a>(
    local: &'a [LocalObject],
    remote: &BTreeMap<String, RemoteObject>,
    prefix: &str,
    force: bool,
) -> Plan<'a> {
    let mut plan = Plan::default();
    let mut wanted = HashSet::new();
    for object in local {
        let key = format!("{prefix}{}", object.file);
        let reason = match remote.get(&key) {
            None => Some(Reason::New),
            Some(_) if force => Some(Reason::Forced),
            Some(r) if r.etag.as_deref() == Some(object.md5.as_str()) && r.size == object.len => {
                None
            }
            Some(_) => Some(Reason::Changed),
        };
        match reason {
            Some(reason) => plan.uploads.push(Upload {
                object,
                key: key.clone(),
                reason,
            }),
            None => plan.unchanged += 1,
        }
        wanted.insert(key);
    }
    plan.uploads
        .sort_by(|a, b| (a.object.phase, &a.key).cmp(&(b.object.phase, &b.key)));
    plan.deletions = remote
        .keys()
        .filter(|k| k.starts_with(prefix) && !wanted.contains(*k))
        .cloned()
        .collect();
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(file: &str, md5: &str, phase: Phase) -> LocalObject {
        LocalObject {
            file: file.into(),
            source: file.into(),
            encoding: None,
            content_type: "text/html; charset=utf-8".into(),
            cache_control: None,
            md5: md5.into(),
            len: 3,
            phase,
            redirect: None,
        }
    }

    fn remote(etag: &str) -> RemoteObject {
        RemoteObject {
            last_modified: None,
            etag: Some(etag.into()),
            size: 3,
        }
    }

    #[test]
    fn only_new_and_changed_bytes_are_uploaded_assets_first() {
        let build = [
            local("index.html", "aaa", Phase::Pages),
            local("about/index.html", "bbb", Phase::Pages),
            local("assets/app-2.js", "ccc", Phase::Assets),
            local("sitemap.xml", "ddd", Phase::SiteWide),
        ];
        let bucket: BTreeMap<String, RemoteObject> = [
            ("site/index.html".to_owned(), remote("aaa")),
            ("site/about/index.html".to_owned(), remote("old")),
            ("site/assets/app-1.js".to_owned(), remote("eee")),
            ("elsewhere/keep.txt".to_owned(), remote("fff")),
        ]
        .into();
        let plan = diff(&build, &bucket, "site/", false);
        let uploads: Vec<(&str, Reason)> = plan
            .uploads
            .iter()
            .map(|u| (u.key.as_str(), u.reason))
            .collect();
        assert_eq!(
            uploads,
            [
                ("site/assets/app-2.js", Reason::New),
                ("site/about/index.html", Reason::Changed),
                ("site/sitemap.xml", Reason::New),
            ]
        );
        assert_eq!(plan.unchanged, 1);
        assert_eq!(plan.deletions, ["site/assets/app-1.js"]);
    }

    #[test]
    fn same_bytes_of_another_length_or_no_etag_count_as_changed_and_force_uploads_all() {
        let build = [local("index.html", "aaa", Phase::Pages)];
        let mut other = remote("aaa");
        other.size = 4;
        let bucket = [("index.html".to_owned(), other)].into();
        assert_eq!(
            diff(&build, &bucket, "", false).uploads[0].reason,
            Reason::Changed
        );
        let bucket = [("index.html".to_owned(), remote("aaa"))].into();
        assert!(diff(&build, &bucket, "", false).uploads.is_empty());
        assert_eq!(
            diff(&build, &bucket, "", true).uploads[0].reason,
            Reason::Forced
        );
    }
}
