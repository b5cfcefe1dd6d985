//! `sitegen cms tidy` on what Decap commits on the live site: its own layout and its own YAML
//! become the project's files, changed by exactly the values edited.
//!
//! `tests/fixtures/cms-tidy/decap/` holds Decap's bytes, not an imitation: the `raw` texts
//! Decap 3.16.3 handed `sitegen dev` on saving the about page's English title and an article's
//! title (the same `entryToRaw` its GitHub backend commits). `about.yaml` there is one document
//! `{en: ..., et: ...}` with its keys in the form's order, long lines folded, comments gone; the
//! article is `SLUG.en.md`, its translation without its `translated_from` comment.
//! `base/` holds the files as the project had them before that save.

use std::path::{Path, PathBuf};
use std::process::Command;

const ARTICLE: &str = "designing-event-driven-apis-that-scale";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cms-tidy")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// A repository whose one commit is the content with the fixture's `base/` files, and a
/// working tree with the fixture's `decap/` files over it, as a pull request of the editor has.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = dir.path().join("content");
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    crate::common::copy_dir(&real, &content).expect("copy");
    crate::common::copy_dir(&fixture().join("base"), &content).expect("base");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "base"]);
    crate::common::copy_dir(&fixture().join("decap"), &content).expect("decap");
    dir
}

fn public() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../site/public")
}

#[test]
fn decaps_files_become_the_projects_with_only_the_edited_lines_changed() {
    let repo = repository();
    let content = repo.path().join("content");
    let tidied = sitegen::cms::tidy::tidy(&content, &public(), "HEAD").expect("tidy");
    assert_eq!(
        tidied.removed,
        [format!("content/articles/{ARTICLE}.en.md")],
        "{tidied:?}"
    );
    assert_eq!(tidied.saved.len(), 3, "{tidied:?}");
    // What the pull request now changes: one line of each edited file, nothing else.
    let diff = git(repo.path(), &["diff", "--stat", "HEAD"]);
    let status = git(repo.path(), &["status", "--porcelain"]);
    assert_eq!(
        status,
        format!(" M content/articles/{ARTICLE}.md\n M content/pages/about.yaml\n"),
        "{diff}"
    );
    let lines = |path: &str| -> Vec<String> {
        git(repo.path(), &["diff", "-U0", "HEAD", "--", path])
            .lines()
            .filter(|l| {
                (l.starts_with('+') || l.starts_with('-'))
                    && !l.starts_with("+++")
                    && !l.starts_with("---")
            })
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        lines("content/pages/about.yaml"),
        [
            "-  title: About Us | Nordvale",
            "+  title: About Us | Nordvale (edited)"
        ]
    );
    assert_eq!(
        lines(&format!("content/articles/{ARTICLE}.md")),
        [
            "-title: Designing event-driven APIs that scale",
            "+title: Designing event-driven APIs that last"
        ]
    );
}

#[test]
fn a_file_already_tidied_or_written_by_hand_is_left_as_it_is() {
    let repo = repository();
    let content = repo.path().join("content");
    sitegen::cms::tidy::tidy(&content, &public(), "HEAD").expect("tidy");
    let once = crate::common::tree(&content).expect("tree");
    let again = sitegen::cms::tidy::tidy(&content, &public(), "HEAD").expect("again");
    assert!(again.removed.is_empty(), "{again:?}");
    assert_eq!(crate::common::tree(&content).expect("tree"), once);
}

#[test]
fn an_invalid_save_of_the_editor_is_refused_and_named() {
    let repo = repository();
    let content = repo.path().join("content");
    let en = content.join(format!("articles/{ARTICLE}.en.md"));
    let text = std::fs::read_to_string(&en).expect("article");
    std::fs::write(&en, text.replace("date: 2024-02-14", "date: someday")).expect("write");
    let err = sitegen::cms::tidy::tidy(&content, &public(), "HEAD").expect_err("invalid");
    let message = format!("{err:#}");
    assert!(
        message.contains(&format!("content/articles/{ARTICLE}.md:")) && message.contains("date"),
        "{message}"
    );
}

#[test]
fn a_persons_edit_of_an_english_article_is_left_as_it_is() {
    let repo = repository();
    let content = repo.path().join("content");
    // Decap writes `SLUG.en.md`, never `SLUG.md`: this is a person's commit on the branch.
    let source = content.join(format!("articles/{ARTICLE}.md"));
    let text = std::fs::read_to_string(&source).expect("article");
    let edited = text.replacen("---\n", "---\n# reviewed by the editor-in-chief\n", 1);
    std::fs::write(&source, &edited).expect("write");
    std::fs::remove_file(content.join(format!("articles/{ARTICLE}.en.md"))).expect("rm");
    sitegen::cms::tidy::tidy(&content, &public(), "HEAD").expect("tidy");
    assert_eq!(std::fs::read_to_string(&source).expect("article"), edited);
}

/// `redirects.yaml` as the editor is given it (its map as a list of entries under `_entries`),
/// one target changed and written afresh as Decap writes: back to the map, one line changed.
#[test]
fn a_map_file_written_as_the_editors_list_becomes_the_map_again() {
    let repo = repository();
    let content = repo.path().join("content");
    let backend = sitegen::cms::Backend::Local {
        proxy_url: sitegen::cms::LOCAL_PROXY_URL.into(),
    };
    let config = sitegen::cms::config(&content, "content", backend).expect("config");
    let local = sitegen::cms::local::Local::new(&content, &public(), config).expect("local");
    let request: sitegen::cms::local::Request = serde_json::from_value(serde_json::json!({
        "action": "getEntry", "params": {"path": "content/redirects.yaml"}
    }))
    .expect("request");
    let shown = local.handle(&request).expect("entry")["data"]
        .as_str()
        .expect("text")
        .to_owned();
    let mut doc: serde_yaml::Value = serde_yaml::from_str(&shown).expect("yaml");
    let entries = doc["_entries"].as_sequence_mut().expect("a list");
    let first = entries[0].as_mapping_mut().expect("an entry");
    let old = first
        .get("_value")
        .and_then(|v| v.as_str())
        .expect("a target")
        .to_owned();
    let new = if old == "gone" { "/about" } else { "gone" };
    first.insert("_value".into(), new.into());
    let file = content.join("redirects.yaml");
    std::fs::write(&file, serde_yaml::to_string(&doc).expect("yaml")).expect("write");
    sitegen::cms::tidy::tidy(&content, &public(), "HEAD").expect("tidy");
    let diff = git(
        repo.path(),
        &["diff", "-U0", "HEAD", "--", "content/redirects.yaml"],
    );
    let changed: Vec<&str> = diff
        .lines()
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-'))
                && !l.starts_with("+++")
                && !l.starts_with("---")
        })
        .collect();
    assert_eq!(changed.len(), 2, "{diff}");
    assert!(changed[1].ends_with(new), "{diff}");
}
