#![allow(dead_code)] // each test file uses a part

//! What the build tests share: a copy of the repository's site (with its installed packages
//! linked, so `make deps` must have run) and content, to edit freely.

use std::path::{Path, PathBuf};

#[path = "../../examples/common/languages.rs"]
mod languages;
pub use languages::one_language;

/// The repository root.
pub const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// A copy of the site and the content in a temporary folder, with a build cache (`dir/cache`)
/// that has the site's bundle ([`seed_bundle`]).
#[derive(Debug)]
pub struct Copy {
    /// The temporary folder, removed on drop.
    pub dir: tempfile::TempDir,
    /// The copied `content/`.
    pub content: PathBuf,
    /// The copied `site/`, whose `node_modules` links to the repository's.
    pub site: PathBuf,
}

impl Copy {
    /// Copies the site (its bundle's inputs) and the content.
    pub fn new() -> anyhow::Result<Self> {
        let dir = tempfile::tempdir()?;
        let repo = Path::new(REPO);
        let content = dir.path().join("content");
        let site = dir.path().join("site");
        copy_tree(&repo.join("content"), &content, &[])?;
        copy_tree(&repo.join("site"), &site, &sitegen::bundle::NOT_INPUTS)?;
        std::os::unix::fs::symlink(
            repo.join("site/node_modules").canonicalize()?,
            site.join("node_modules"),
        )?;
        // The cache the tests build the copy with, `dir/cache`, holds the site's bundle already.
        seed_bundle(&dir.path().join("cache"))?;
        Ok(Self { dir, content, site })
    }
}

/// Puts the bundle of the repository's site into the build cache at `cache`, where a build of a
/// [`Copy`] of the site finds it (the copy has the same files over the same packages, so the
/// same bundle): `vite build` runs once for all the tests of a run, and of the next runs while
/// `site/` is unchanged, by whichever test asks first, into a cache of its own in the temporary
/// folder. Not under `target/`: Tailwind leaves out of its scan what a `.gitignore` above the
/// folder Vite builds in ignores, so a bundle built inside the checkout has other CSS. A test
/// whose point is not Vite seeds each cache it builds with. A cache that has a `bundles` folder
/// already is left as it is (a test's own bundle, perhaps damaged on purpose).
pub fn seed_bundle(cache: &Path) -> anyhow::Result<()> {
    use sitegen::bundle::{Prepared, prepare};
    if cache.join("bundles").exists() {
        return Ok(());
    }
    let shared = std::env::temp_dir().join("sitegen-tests-bundles");
    std::fs::create_dir_all(&shared)?;
    let bundle = {
        // One test builds while the others wait; a lock of the whole folder is released when
        // its file closes, whatever ends the test.
        let lock = std::fs::File::create(shared.join(".lock"))?;
        lock.lock()?;
        let store = sitegen::cache::Cache::open(Some(&shared))?;
        match prepare(&Path::new(REPO).join("site"), &store)? {
            Prepared::Cached(bundle) => bundle,
            Prepared::ToBuild(build) => build.run(&store, true)?,
        }
    };
    let name = bundle
        .dir
        .file_name()
        .ok_or_else(|| anyhow::anyhow!("a bundle has a name"))?;
    copy_dir(&bundle.dir, &cache.join("bundles").join(name))
}

/// Copies `from` into `to` as [`copy_tree`] does, and its symbolic links as links (a bundle's
/// `node_modules`).
pub fn copy_dir(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from)?);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else if entry.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path())?, &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Copies the files and folders of `from` into `to`, leaving out the entries of `from` named in
/// `skip`.
pub fn copy_tree(from: &Path, to: &Path, skip: &[&str]) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.depth() != 1 || !skip.iter().any(|s| e.file_name() == *s))
    {
        let entry = entry?;
        let rel = entry.path().strip_prefix(from)?;
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(to.join(rel))?;
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), to.join(rel))?;
        }
    }
    Ok(())
}

/// Every file of `dir` with its bytes, by path relative to it.
pub fn tree(dir: &Path) -> anyhow::Result<std::collections::BTreeMap<String, Vec<u8>>> {
    let mut files = std::collections::BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry?;
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(dir)?
                .to_string_lossy()
                .into_owned();
            files.insert(rel, std::fs::read(entry.path())?);
        }
    }
    Ok(files)
}

/// The render workers of the site in `site` still running (by their command line).
pub fn workers_of(site: &Path) -> Vec<u32> {
    let script = sitegen::render::worker_script(site).display().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|cmd| String::from_utf8_lossy(&cmd).contains(&script))
                .unwrap_or(false)
        })
        .collect()
}

/// Shows an illustration where the content shows a photo. The photos' encoding is
/// tests/images.rs's to check (a second build encodes nothing there); here every clean build
/// would encode them all again, seconds each, and no edit touches them.
pub fn without_photos(content: &Path) -> anyhow::Result<()> {
    const ILLUSTRATION: &str = "/images/insights/cloud-migration-questions.svg";
    for entry in walkdir::WalkDir::new(content) {
        let path = entry?.into_path();
        if !path.extension().is_some_and(|e| e == "md" || e == "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let is_photo = |word: &str| {
            word.starts_with("/images/")
                && [".jpg", ".jpeg", ".png", ".webp"]
                    .iter()
                    .any(|ext| word.ends_with(ext))
        };
        let swapped: String = text
            .split_inclusive('\n')
            .map(|line| {
                let (body, end) = line.split_at(line.trim_end().len());
                let words: Vec<&str> = body
                    .split(' ')
                    .map(|word| if is_photo(word) { ILLUSTRATION } else { word })
                    .collect();
                format!("{}{end}", words.join(" "))
            })
            .collect();
        if swapped != text {
            std::fs::write(&path, swapped)?;
        }
    }
    Ok(())
}

/// Replaces the first `from` in `file` (whatever an earlier edit appended to it).
pub fn replace(file: &Path, from: &str, to: &str) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(file)?;
    let line_end = text
        .find(from)
        .map(|start| start + text[start..].find('\n').unwrap_or(text.len() - start))
        .ok_or_else(|| anyhow::anyhow!("{} has no {from:?}", file.display()))?;
    let start = text.find(from).unwrap_or(0);
    std::fs::write(file, format!("{}{to}{}", &text[..start], &text[line_end..]))?;
    Ok(())
}

/// What `look` finds, once `done` accepts it or ten seconds have passed: for what `sitegen build`
/// leaves to a process that outlives it (deleting the previous output).
pub fn soon<T>(mut look: impl FnMut() -> T, done: impl Fn(&T) -> bool) -> T {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let found = look();
        if done(&found) || std::time::Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
