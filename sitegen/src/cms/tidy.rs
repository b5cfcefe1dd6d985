//! `sitegen cms tidy`: the files the editor of the live site committed on a pull request,
//! rewritten into the project's layout as minimal edits of their text at the pull request's base.
//!
//! On the live site Decap commits to GitHub itself, in its own layout and its own YAML
//! (`decap-cms-core/src/lib/i18n.ts`, `formats/yaml.ts`): an article's English file as
//! `SLUG.en.md`, a page and its translations as one document `{en: ..., et: ...}` in `about.yaml`,
//! every file serialised afresh (comments, key order and quoting lost), the model's maps as the
//! lists the editor shows them as. That is exactly what `sitegen dev`'s editor hands its backend
//! ([`super::local`]), so the same code takes it back: each changed file is first put back as it
//! was at the base, then the editor's text is saved over it as `sitegen dev` saves, which
//! validates the whole content and writes only the values that changed.
//!
//! A file is taken as the editor's when its name or shape can only be the editor's: an article
//! named with a language (`SLUG.en.md`, `SLUG.et.md`), a translated file whose document is keyed
//! by the site's languages (no file of the model has a language tag for a key), a map file whose
//! entries are under [`super::fields::ROOT_MAP`]. Any other changed file is left as it is: a
//! commit a person made, or a file tidied before. Run it on the editor's branches only: a
//! person's edit of an article's translation there is saved again as the editor's (its values
//! kept, a comment added to it lost).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, Result, bail};
use serde_json::json;

use super::local::{Local, LocalError, Request};

/// What a tidy changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tidied {
    /// The editor's files saved in the project's layout, by their path in the repository.
    pub saved: Vec<String>,
    /// Files of the editor's layout removed (`SLUG.en.md`, saved as `SLUG.md`).
    pub removed: Vec<String>,
}

/// Tidies the content files under `content_dir` (`content/` of a git working tree) that
/// differ from the revision `base` (a commit, branch or tag git knows). `public_dir` is the
/// site's `public/`, for the validation.
pub fn tidy(content_dir: &Path, public_dir: &Path, base: &str) -> Result<Tidied> {
    let content_dir = std::path::absolute(content_dir)?;
    let root = content_dir
        .parent()
        .context("the content directory has no parent")?;
    let content_path = super::CONTENT_PATH;
    anyhow::ensure!(
        content_dir.ends_with(content_path),
        "{}: the editor's paths name the content folder `{content_path}/`",
        content_dir.display()
    );
    let backend = super::Backend::Local {
        proxy_url: super::LOCAL_PROXY_URL.into(),
    };
    let config = super::config(&content_dir, content_path, backend)?;
    let local = Local::new(&content_dir, public_dir, config)?;
    let changed = changed_files(root, base, content_path)?;
    let mut tidied = Tidied::default();
    let mut data_files = Vec::new();
    let mut restores: Vec<PathBuf> = Vec::new();
    for path in changed {
        let Ok(raw) = std::fs::read_to_string(root.join(&path)) else {
            continue; // removed by the pull request: nothing to tidy
        };
        if !is_editors(&local, &path, &raw) {
            continue;
        }
        let disk = local.disk_files(&path).map_err(anyhow::Error::from)?;
        if !disk.contains(&root.join(&path)) {
            tidied.removed.push(path.clone());
            restores.push(root.join(&path));
        }
        restores.extend(disk);
        data_files.push(json!({ "path": path, "raw": raw }));
        tidied.saved.push(path);
    }
    if data_files.is_empty() {
        return Ok(tidied);
    }
    // Each file back as it was at the base (or gone, if it is new), so the save is written as
    // edits of the base's text.
    restores.sort();
    restores.dedup();
    for file in &restores {
        let rel = file.strip_prefix(root)?.to_string_lossy().into_owned();
        match show(root, base, &rel)? {
            Some(text) => {
                std::fs::write(file, text).with_context(|| format!("writing {rel}"))?;
            }
            None if file.exists() => {
                std::fs::remove_file(file).with_context(|| format!("removing {rel}"))?;
            }
            None => {}
        }
    }
    let request = Request {
        action: "persistEntry".into(),
        params: json!({ "dataFiles": data_files, "assets": [] }),
    };
    match local.handle(&request) {
        Ok(_) => Ok(tidied),
        Err(
            LocalError::Refused(message)
            | LocalError::Unsupported(message)
            | LocalError::Invalid { message, .. },
        ) => {
            bail!("the editor's files cannot be tidied:\n{message}")
        }
        Err(LocalError::Io(err)) => Err(err),
    }
}

/// Whether the text `raw` at `path` is in the editor's layout (see the module's doc).
fn is_editors(local: &Local, path: &str, raw: &str) -> bool {
    let locales = local.locales();
    let name = path.rsplit('/').next().unwrap_or(path);
    if let Some((stem, "md")) = name.rsplit_once('.') {
        // `SLUG.en.md` is the editor's name of `SLUG.md`, which it never writes; a translation
        // (`SLUG.et.md`) keeps its name, and saved again over its base, a file already tidied
        // comes out as it is.
        return stem
            .rsplit_once('.')
            .is_some_and(|(_, tag)| locales.iter().any(|l| l == tag));
    }
    if !local.is_file_entry(path) {
        return false;
    }
    let Ok(serde_yaml::Value::Mapping(doc)) = crate::content::yaml::value_from_str(raw) else {
        return false;
    };
    let keys: Vec<&str> = doc.keys().filter_map(serde_yaml::Value::as_str).collect();
    match local.is_translated_file(path) {
        // No file of the model has a language tag for a key.
        true => {
            !keys.is_empty()
                && keys.len() == doc.len()
                && keys.iter().all(|key| locales.iter().any(|l| l == key))
        }
        // A map file as the editor shows it (`redirects.yaml`): its entries under the one key
        // no file of the model has.
        false => keys.contains(&super::fields::ROOT_MAP),
    }
}

/// The files under `content_path` that differ between `base` and the working tree, by their
/// path relative to `root` (new files that git does not track yet included).
fn changed_files(root: &Path, base: &str, content_path: &str) -> Result<Vec<String>> {
    let diff = git(
        root,
        &[
            "diff",
            "--name-only",
            "--no-renames",
            "--relative",
            base,
            "--",
            content_path,
        ],
    )?;
    let untracked = git(
        root,
        &[
            "ls-files",
            "--others",
            "--exclude-standard",
            "--",
            content_path,
        ],
    )?;
    let mut files: Vec<String> = diff
        .lines()
        .chain(untracked.lines())
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect();
    files.sort();
    files.dedup();
    Ok(files)
}

/// The text of `rel` (relative to `root`) at the revision `base`, or `None` when it has no
/// such file.
fn show(root: &Path, base: &str, rel: &str) -> Result<Option<String>> {
    let object = format!("{base}:./{rel}");
    let exists = Command::new("git")
        .current_dir(root)
        .args(["cat-file", "-e", &object])
        .output()
        .context("running git")?;
    if !exists.status.success() {
        return Ok(None);
    }
    git(root, &["show", &object]).map(Some)
}

fn git(root: &Path, args: &[&str]) -> Result<String> {
    let output = Command::new("git")
        .current_dir(root)
        .args(args)
        .output()
        .context("running git")?;
    if !output.status.success() {
        bail!(
            "git {} in {}: {}",
            args.join(" "),
            root.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    String::from_utf8(output.stdout).context("git's output is not UTF-8")
}
