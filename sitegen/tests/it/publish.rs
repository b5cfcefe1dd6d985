//! Atomic publish: the previous output survives a failed build byte for byte.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use sitegen::publish::{PreviousOutput, publish, publish_keeping_old, staging_dir};

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in fs::read_dir(&current).expect("readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path
                    .strip_prefix(dir)
                    .expect("inside")
                    .display()
                    .to_string();
                files.insert(name, fs::read(&path).expect("readable"));
            }
        }
    }
    files
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn previous_build(target: &Path) {
    fs::create_dir_all(target.join("about")).expect("mkdir");
    fs::write(target.join("index.html"), "<h1>old home</h1>").expect("write");
    fs::write(target.join("about/index.html"), "<h1>old about</h1>").expect("write");
}

/// A previous build in `dist` under a new folder, and a new home page published over it with
/// the previous output kept aside: the folder, the target and the previous output.
fn new_home_published_keeping_old() -> (tempfile::TempDir, std::path::PathBuf, PreviousOutput) {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("dist");
    previous_build(&target);
    let staging = staging_dir(&target).expect("staging");
    fs::write(staging.path().join("index.html"), "<h1>new home</h1>").expect("write");
    let previous = publish_keeping_old(staging, &target).expect("publish");
    (root, target, previous)
}

#[test]
fn staging_is_a_hidden_sibling_of_the_target() {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("dist");
    let staging = staging_dir(&target).expect("staging");
    assert_eq!(staging.path().parent(), Some(root.path()));
    let name = staging.path().file_name().expect("name").to_string_lossy();
    assert!(name.starts_with(".dist.staging-"), "{name}");
    assert!(names_in(staging.path()).is_empty());
}

#[test]
fn publish_swaps_in_the_new_output_and_leaves_nothing_behind() {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("dist");
    previous_build(&target);

    let staging = staging_dir(&target).expect("staging");
    fs::write(staging.path().join("index.html"), "<h1>new home</h1>").expect("write");
    publish(staging, &target).expect("publish");

    let files = snapshot(&target);
    assert_eq!(files.keys().collect::<Vec<_>>(), ["index.html"]);
    assert_eq!(files["index.html"], b"<h1>new home</h1>");
    assert_eq!(names_in(root.path()), ["dist"]);
}

#[test]
fn the_new_output_is_in_place_before_the_old_one_is_removed() {
    let (root, target, previous) = new_home_published_keeping_old();

    assert_eq!(snapshot(&target).keys().collect::<Vec<_>>(), ["index.html"]);
    let hidden: Vec<_> = names_in(root.path())
        .into_iter()
        .filter(|n| n != "dist")
        .collect();
    assert_eq!(hidden.len(), 1, "{hidden:?}");
    assert!(hidden[0].starts_with(".dist.old-"), "{hidden:?}");
    let old = root.path().join(&hidden[0]).join("dist");
    assert_eq!(
        snapshot(&old).keys().collect::<Vec<_>>(),
        ["about/index.html", "index.html"]
    );

    previous.remove().expect("removed");
    assert_eq!(names_in(root.path()), ["dist"]);
    assert_eq!(snapshot(&target)["index.html"], b"<h1>new home</h1>");
}

#[test]
fn publish_creates_a_target_that_does_not_exist_yet() {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("out/site");
    let staging = staging_dir(&target).expect("staging creates the parent");
    fs::write(staging.path().join("index.html"), "home").expect("write");
    publish(staging, &target).expect("publish");
    assert_eq!(
        fs::read_to_string(target.join("index.html"))
            .ok()
            .as_deref(),
        Some("home")
    );
    assert_eq!(names_in(&root.path().join("out")), ["site"]);
}

/// A build that writes part of its output, then fails on bad content.
fn build_into(dir: &Path) -> anyhow::Result<()> {
    fs::write(dir.join("index.html"), "<h1>half</h1>")?;
    anyhow::bail!("content/services/cloud.yaml:12:3: unknown field `titel`")
}

#[test]
fn a_failed_build_leaves_the_previous_output_untouched() {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("dist");
    previous_build(&target);
    let before = snapshot(&target);

    let build = || -> anyhow::Result<()> {
        let staging = staging_dir(&target)?;
        build_into(staging.path())?;
        publish(staging, &target)
    };
    assert!(build().is_err());

    assert_eq!(snapshot(&target), before);
    assert_eq!(
        names_in(root.path()),
        ["dist"],
        "the staging dir is removed"
    );
}

#[test]
fn a_failed_swap_restores_the_previous_output() {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("dist");
    previous_build(&target);
    let before = snapshot(&target);

    let staging = staging_dir(&target).expect("staging");
    // Make the rename of the staging dir fail: it no longer exists.
    fs::remove_dir(staging.path()).expect("remove staging");
    let err = publish(staging, &target).expect_err("nothing to swap in");

    assert!(err.to_string().starts_with("moving "), "{err:#}");
    assert_eq!(snapshot(&target), before);
    assert_eq!(names_in(root.path()), ["dist"], "the backup is cleaned up");
}

#[test]
fn publish_refuses_to_replace_a_directory_that_is_not_a_build() {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("src");
    fs::create_dir(&target).expect("mkdir");
    fs::write(target.join("main.rs"), "fn main() {}").expect("write");

    let staging = staging_dir(&target).expect("staging");
    let err = publish(staging, &target).expect_err("not a previous build");
    assert_eq!(
        err.to_string(),
        format!(
            "refusing to replace {}: it is not empty and has no index.html, so it does not look like a previous build; remove it or choose another output directory",
            target.display()
        )
    );
    assert_eq!(names_in(&target), ["main.rs"]);
    assert_eq!(names_in(root.path()), ["src"]);
}

#[test]
fn publish_refuses_to_replace_a_file() {
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("dist");
    fs::write(&target, "not a directory").expect("write");
    let staging = staging_dir(&target).expect("staging");
    let err = publish(staging, &target).expect_err("a file is not an output dir");
    assert!(err.to_string().contains("it is not a directory"), "{err}");
    assert_eq!(
        fs::read_to_string(&target).ok().as_deref(),
        Some("not a directory")
    );
}

#[test]
fn the_previous_output_left_to_a_background_removal_goes_and_the_new_one_stays() {
    let (root, target, previous) = new_home_published_keeping_old();
    previous.remove_in_background().expect("handed over");

    assert_eq!(
        crate::common::soon(|| names_in(root.path()), |names| names == &["dist"]),
        ["dist"]
    );
    let files = snapshot(&target);
    assert_eq!(files.keys().collect::<Vec<_>>(), ["index.html"]);
    assert_eq!(files["index.html"], b"<h1>new home</h1>");
}

mod plan {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    use std::path::Path;

    use sitegen::publish::{Expected, PlannedFile, PublishError, publish_plan};

    /// A file of a store: named by the hash of its bytes, read-only, as the cache keeps them.
    fn planned(store: &Path, file: &str, text: &str) -> anyhow::Result<PlannedFile> {
        let hash = sitegen::cache::hash_hex(&[text.as_bytes()]);
        let from = store.join(&hash);
        if !from.exists() {
            std::fs::write(&from, text)?;
            std::fs::set_permissions(&from, std::fs::Permissions::from_mode(0o444))?;
        }
        Ok(PlannedFile {
            file: file.into(),
            from,
            id: hash.clone(),
            expected: Expected::Hash(hash),
            take: false,
        })
    }

    fn ino(path: &Path) -> u64 {
        std::fs::metadata(path).map(|m| m.ino()).unwrap_or(0)
    }

    fn publish(
        plan: &[PlannedFile],
        out: &Path,
        record: &Path,
    ) -> anyhow::Result<sitegen::publish::Published> {
        let (done, previous) = publish_plan(plan, out, record)?;
        previous.remove()?;
        Ok(done)
    }

    #[test]
    fn a_rebuild_copies_only_what_changed_and_drops_what_went() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let store = dir.path().join("store");
        std::fs::create_dir_all(&store)?;
        let out = dir.path().join("dist");
        let record = dir.path().join("record");
        let first = vec![
            planned(&store, "index.html", "home")?,
            planned(&store, "about/index.html", "about")?,
            planned(&store, "old/deep/index.html", "old")?,
        ];
        let done = publish(&first, &out, &record)?;
        assert!(done.replaced);
        let home = ino(&out.join("index.html"));

        let second = vec![
            planned(&store, "index.html", "home")?,
            planned(&store, "about/index.html", "about, changed")?,
            planned(&store, "new/index.html", "new")?,
        ];
        let done = publish(&second, &out, &record)?;
        assert_eq!(
            (done.written, done.removed_files.len(), done.replaced),
            (2, 1, false)
        );
        assert_eq!(
            ino(&out.join("index.html")),
            home,
            "an unchanged file is kept, not copied again"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("about/index.html"))?,
            "about, changed"
        );
        assert_eq!(std::fs::read_to_string(out.join("new/index.html"))?, "new");
        assert!(!out.join("old").exists(), "emptied folders are gone");
        let done = publish(&second, &out, &record)?;
        assert_eq!(
            (done.written, done.removed_files.len()),
            (0, 0),
            "nothing changed"
        );
        Ok(())
    }

    #[test]
    fn published_files_are_ordinary_copies_that_an_edit_in_place_cannot_reach_past()
    -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let store = dir.path().join("store");
        std::fs::create_dir_all(&store)?;
        let plan = vec![
            planned(&store, "index.html", "home")?,
            planned(&store, "about/index.html", "about")?,
        ];
        let (out, record) = (dir.path().join("dist"), dir.path().join("record"));
        let (other, other_record) = (dir.path().join("other"), dir.path().join("other-record"));
        publish(&plan, &out, &record)?;
        publish(&plan, &other, &other_record)?;
        // The modes the umask gives (the tests run under 022, as a shell does).
        for path in [&out, &out.join("about")] {
            assert_eq!(std::fs::metadata(path)?.mode() & 0o777, 0o755, "{path:?}");
        }
        for path in [out.join("index.html"), out.join("about/index.html")] {
            let meta = std::fs::metadata(&path)?;
            assert_eq!(meta.mode() & 0o777, 0o644, "{path:?}");
            assert_eq!(meta.nlink(), 1, "{path:?} shares its bytes with nothing");
        }

        // Appended to, truncated, overwritten in place at once (within the clock's tick).
        let about = out.join("about/index.html");
        std::fs::OpenOptions::new()
            .append(true)
            .open(&about)
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"<!-- x -->"))?;
        std::fs::OpenOptions::new()
            .write(true)
            .open(out.join("index.html"))
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"HOME"))?;
        assert_eq!(std::fs::read_to_string(&plan[0].from)?, "home");
        assert_eq!(std::fs::read_to_string(&plan[1].from)?, "about");
        assert_eq!(
            std::fs::read_to_string(other.join("about/index.html"))?,
            "about"
        );
        let done = publish(&plan, &out, &record)?;
        assert_eq!(done.written, 2, "both edited files are published again");
        assert_eq!(std::fs::read_to_string(&about)?, "about");
        assert_eq!(std::fs::read_to_string(out.join("index.html"))?, "home");

        std::fs::File::options()
            .write(true)
            .open(&about)?
            .set_len(0)?;
        let done = publish(&plan, &out, &record)?;
        assert_eq!(done.written, 1);
        assert_eq!(std::fs::read_to_string(&about)?, "about");
        Ok(())
    }

    #[test]
    fn a_file_to_take_is_moved_into_the_output_and_the_others_copied() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let store = dir.path().join("store");
        std::fs::create_dir_all(&store)?;
        let hash = sitegen::cache::hash_hex(&[b"home"]);
        let from = store.join(&hash);
        std::fs::write(&from, "home")?;
        let moved = ino(&from);
        let plan = vec![
            PlannedFile {
                file: "index.html".into(),
                from: from.clone(),
                id: hash,
                expected: Expected::Fresh,
                take: true,
            },
            planned(&store, "about/index.html", "about")?,
        ];
        let out = dir.path().join("dist");
        publish(&plan, &out, &dir.path().join("record"))?;
        assert!(!from.exists(), "taken from the store");
        assert_eq!(ino(&out.join("index.html")), moved);
        assert_eq!(std::fs::read_to_string(out.join("index.html"))?, "home");
        assert!(
            plan[1].from.exists(),
            "a file not to take stays in the store"
        );
        assert_ne!(ino(&out.join("about/index.html")), ino(&plan[1].from));
        Ok(())
    }

    #[test]
    fn a_damaged_file_of_the_store_is_named_and_nothing_is_published() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let store = dir.path().join("store");
        std::fs::create_dir_all(&store)?;
        let (out, record) = (dir.path().join("dist"), dir.path().join("record"));
        publish(&[planned(&store, "index.html", "before")?], &out, &record)?;

        let plan = vec![
            planned(&store, "index.html", "home")?,
            planned(&store, "about/index.html", "about")?,
        ];
        std::fs::set_permissions(&plan[1].from, std::fs::Permissions::from_mode(0o644))?;
        std::fs::write(&plan[1].from, "abort")?;
        let Err(PublishError::Damaged(damaged)) = publish_plan(&plan, &out, &record) else {
            panic!("the damaged file was published");
        };
        assert_eq!(damaged, vec![plan[1].from.clone()]);
        assert_eq!(std::fs::read_to_string(out.join("index.html"))?, "before");
        assert!(!out.join("about").exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())?
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(".dist"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        Ok(())
    }
}
