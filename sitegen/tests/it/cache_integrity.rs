//! The output and the build cache, through the real `sitegen` binary: published files are
//! ordinary files that nothing done to them reaches past; a damaged cache entry is made
//! again, never published; `kill -9`, a full disk and a concurrent build lose nothing; the
//! cache can be seen and pruned. And, through the library, a memo damaged on disk is found
//! when it is read: a miss, never a value.
//!
//! Needs Node.js and the site's packages (`make deps`), but for the memo's test.

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{copy_dir, replace, tree, without_photos};

const SITEGEN: &str = env!("CARGO_BIN_EXE_sitegen");

type Tree = BTreeMap<String, Vec<u8>>;

/// A copy of the site and its content (without the photos, whose encoding is
/// tests/images.rs's to check), and a folder for outputs and caches.
struct Project {
    copy: common::Copy,
    work: tempfile::TempDir,
}

impl Project {
    fn new() -> anyhow::Result<Self> {
        let copy = common::Copy::new()?;
        without_photos(&copy.content)?;
        common::one_language(&copy.content)?;
        Ok(Self {
            copy,
            work: tempfile::tempdir()?,
        })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.work.path().join(name)
    }

    /// `sitegen build --quiet` of the copy into `out` with the cache `cache`, under the usual
    /// umask.
    fn command(&self, out: &Path, cache: &Path) -> Command {
        let mut command = self.loud_command(out, cache);
        command.arg("--quiet");
        command
    }

    /// [`Project::command`], printing the build's summary.
    fn loud_command(&self, out: &Path, cache: &Path) -> Command {
        // What these tests check is the cache's files, not Vite: a new cache starts with the
        // site's bundle, as a cache that built it once has it.
        if let Err(err) = common::seed_bundle(cache) {
            panic!(
                "seeding {} with the site's bundle: {err:#}",
                cache.display()
            );
        }
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg("umask 022 && exec \"$@\"")
            .arg("sh")
            .arg(SITEGEN)
            .arg("build")
            .arg("--out")
            .arg(out)
            .arg("--cache-dir")
            .arg(cache)
            .arg("--content")
            .arg(&self.copy.content)
            .arg("--site")
            .arg(&self.copy.site)
            .arg("--contact-endpoint")
            .arg("http://127.0.0.1:9")
            .env_remove("SITEGEN_CACHE_DIR")
            .stdin(Stdio::null());
        command
    }

    fn build(&self, out: &Path, cache: &Path) -> anyhow::Result<Output> {
        let output = self.command(out, cache).output()?;
        anyhow::ensure!(
            output.status.success(),
            "sitegen build failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Ok(output)
    }

    /// What a build from a cache with nothing but the bundle (a function of the site's files
    /// alone, copied from `warm`) publishes: the reference every other build must equal.
    fn clean(&self, warm: &Path, name: &str) -> anyhow::Result<Tree> {
        let cache = self.path(&format!("{name}-cache"));
        copy_dir(&warm.join("bundles"), &cache.join("bundles"))?;
        let out = self.path(&format!("{name}-out"));
        self.build(&out, &cache)?;
        let files = tree(&out)?;
        std::fs::remove_dir_all(&out)?;
        std::fs::remove_dir_all(&cache)?;
        Ok(files)
    }

    fn site_yaml(&self) -> PathBuf {
        self.copy.content.join("site.yaml")
    }
}

/// The files where `a` and `b` differ.
fn differences(a: &Tree, b: &Tree) -> Vec<String> {
    let mut files: Vec<String> = a
        .iter()
        .filter(|(file, bytes)| b.get(*file) != Some(bytes))
        .map(|(file, _)| file.clone())
        .collect();
    files.extend(b.keys().filter(|f| !a.contains_key(*f)).cloned());
    files
}

fn assert_same(what: &str, found: &Tree, expected: &Tree) {
    let diff = differences(found, expected);
    assert!(
        diff.is_empty(),
        "{what} differs in {} files: {diff:?}",
        diff.len()
    );
}

/// Hidden folders a publish left beside `out`, once the removal of the previous output that
/// `sitegen build` leaves to a process of its own had time to end ([`common::soon`]).
fn leftovers(out: &Path) -> Vec<String> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let hidden = || -> Vec<String> {
        std::fs::read_dir(out.parent().unwrap_or(Path::new(".")))
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with(&format!(".{name}.")))
                    .collect()
            })
            .unwrap_or_default()
    };
    common::soon(hidden, Vec::is_empty)
}

#[test]
fn published_files_are_ordinary_and_no_edit_of_them_or_damage_to_the_cache_is_published()
-> anyhow::Result<()> {
    let project = Project::new()?;
    let cache = project.path("cache");
    let dist = project.path("dist");
    project.build(&dist, &cache)?;
    let reference = tree(&dist)?;
    assert_same(
        "a clean build",
        &project.clean(&cache, "clean")?,
        &reference,
    );

    // Modes: what cp, Hugo and Vite write under umask 022.
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(&dist) {
        let entry = entry?;
        let meta = entry.metadata()?;
        let expected = if meta.is_dir() { 0o755 } else { 0o644 };
        assert_eq!(meta.mode() & 0o7777, expected, "{}", entry.path().display());
        assert!(
            meta.is_dir() || meta.nlink() == 1,
            "{} is linked",
            entry.path().display()
        );
        checked += 1;
    }
    assert!(checked > 400, "only {checked} files");

    // Appended to, truncated, overwritten in place: by whoever runs the tests (root in CI,
    // whom no file mode stops).
    let about = dist.join("about/index.html");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&about)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"<!-- x -->"))?;
    std::fs::File::options()
        .write(true)
        .open(dist.join("_headers"))?
        .set_len(3)?;
    std::fs::OpenOptions::new()
        .write(true)
        .open(dist.join("index.html.br"))
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"\0\0\0\0"))?;
    let other = project.path("other");
    project.build(&other, &cache)?;
    assert_same(
        "another output of the same cache",
        &tree(&other)?,
        &reference,
    );
    project.build(&dist, &cache)?;
    assert_same("the edited output, built again", &tree(&dist)?, &reference);

    // Damage in the cache: a stored page, a variant, a file of the bundle's.
    let page = std::fs::read(&about)?;
    let hash = sitegen::cache::hash_hex(&[&page]);
    let stored = cache.join("files").join(&hash[..2]).join(&hash);
    let mut variant = stored.clone().into_os_string();
    variant.push(".gz");
    let script = walkdir::WalkDir::new(cache.join("bundles"))
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.path().to_string_lossy().contains("/client/assets/") && e.file_type().is_file())
        .map(|e| e.into_path())
        .ok_or_else(|| anyhow::anyhow!("no script in the bundle"))?;
    for file in [stored.as_path(), Path::new(&variant), script.as_path()] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644))?;
        std::fs::OpenOptions::new()
            .append(true)
            .open(file)
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"damage"))?;
    }
    let third = project.path("third");
    let built = project.build(&third, &cache)?;
    let warning = String::from_utf8_lossy(&built.stderr);
    assert!(
        warning.contains("files of the build cache") && warning.contains("making them again"),
        "{warning}"
    );
    assert_same("a build from the damaged cache", &tree(&third)?, &reference);
    assert_eq!(std::fs::read(&stored)?, page, "the page was made again");
    assert!(leftovers(&third).is_empty(), "{:?}", leftovers(&third));
    Ok(())
}

/// A tiny generator of pseudo-random numbers (xorshift), seeded from the clock and printed,
/// so a failing run can be repeated with `SITEGEN_TEST_SEED`.
struct Random(u64);

impl Random {
    fn new() -> Self {
        let seed = std::env::var("SITEGEN_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(1)
            })
            | 1;
        eprintln!("SITEGEN_TEST_SEED={seed}");
        Self(seed)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Waits for `child` until it exits or `deadline` passes; whether it exited.
fn wait_until(child: &mut std::process::Child, deadline: Instant) -> anyhow::Result<bool> {
    while Instant::now() < deadline {
        if child.try_wait()?.is_some() {
            return Ok(true);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    Ok(false)
}

#[test]
fn kill_9_at_random_points_leaves_the_previous_output_and_the_next_build_equals_a_clean_one()
-> anyhow::Result<()> {
    let project = Project::new()?;
    let cache = project.path("cache");
    let dist = project.path("dist");
    // Versions of the content: the brand's name is on every page, so a build from one to
    // another renders (until the cache knows it), stores and publishes the whole site.
    let site_yaml = std::fs::read_to_string(project.site_yaml())?;
    let set_name = |name: &str| -> anyhow::Result<()> {
        std::fs::write(project.site_yaml(), &site_yaml)?;
        replace(
            &project.site_yaml(),
            "  name: Nordvale",
            &format!("  name: {name}"),
        )
    };
    let mut references: BTreeMap<String, Tree> = BTreeMap::new();
    let mut reference = |name: &str| -> anyhow::Result<Tree> {
        if !references.contains_key(name) {
            set_name(name)?;
            let clean = project.clean(&cache, &format!("clean-{}", references.len()))?;
            references.insert(name.to_owned(), clean);
        }
        set_name(name)?;
        Ok(references[name].clone())
    };
    set_name("Nordvale Alpha")?;
    let started = Instant::now();
    project.build(&dist, &cache)?;
    let first = reference("Nordvale Alpha")?;
    assert_same("the first build", &tree(&dist)?, &first);
    // How long a build runs: it is killed at a random point of that (and a bit after). At
    // first a build that renders everything; then the last build that ran to its end.
    let mut typical = started.elapsed();

    let mut random = Random::new();
    let mut killed = 0;
    for round in 0..20 {
        // Mostly two versions in turn; every seventh round a new one, whose pages the workers
        // render, and a worker is killed rather than sitegen.
        let kill_worker = round % 7 == 3;
        let name = match (kill_worker, round % 2) {
            (true, _) => format!("Nordvale Round {round}"),
            (false, 0) => "Nordvale Beta".to_owned(),
            (false, _) => "Nordvale Alpha".to_owned(),
        };
        let next = reference(&name)?;
        let before = tree(&dist)?;
        let spawned = Instant::now();
        let mut child = project
            .command(&dist, &cache)
            .stderr(Stdio::null())
            .spawn()?;
        let delay = Duration::from_millis(random.below(typical.as_millis() as u64 * 5 / 4 + 1));
        if kill_worker {
            let deadline = Instant::now() + Duration::from_secs(60);
            while common::workers_of(&project.copy.site).is_empty()
                && !wait_until(&mut child, Instant::now() + Duration::from_millis(5))?
                && Instant::now() < deadline
            {}
            std::thread::sleep(delay / 4);
            let workers = common::workers_of(&project.copy.site);
            for pid in &workers {
                let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            }
            killed += usize::from(!workers.is_empty());
            child.wait()?;
        } else if wait_until(&mut child, Instant::now() + delay)? {
            typical = spawned.elapsed();
        } else {
            child.kill()?;
            child.wait()?;
            killed += 1;
        }
        let after = tree(&dist)?;
        assert!(
            after == before || after == next,
            "round {round}: the killed build left neither the previous output nor the new one \
             ({} files differ from the previous)",
            differences(&after, &before).len()
        );
        project.build(&dist, &cache)?;
        assert_same(
            &format!("round {round}: the next build"),
            &tree(&dist)?,
            &next,
        );
        assert!(
            leftovers(&dist).is_empty(),
            "round {round}: {:?}",
            leftovers(&dist)
        );
    }
    // Most rounds end in a kill mid-build (the others finished first).
    assert!(
        killed >= 10,
        "only {killed} of 20 builds were killed before they finished"
    );
    Ok(())
}

#[test]
fn two_builds_of_different_content_share_one_cache_at_the_same_time() -> anyhow::Result<()> {
    let first = Project::new()?;
    let second = Project::new()?;
    replace(
        &second.site_yaml(),
        "  name: Nordvale",
        "  name: Nordvale Second",
    )?;
    let cache = first.path("cache");
    // The bundle first, so that both builds spend their time rendering and publishing.
    first.build(&first.path("warm"), &cache)?;
    let (a, b) = (first.path("a"), second.path("b"));
    let one = first.command(&a, &cache).output();
    let (one, two) = std::thread::scope(|scope| {
        let other = scope.spawn(|| second.command(&b, &cache).output());
        (one, other.join())
    });
    for output in [
        one?,
        two.map_err(|_| anyhow::anyhow!("the thread panicked"))??,
    ] {
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert_same(
        "the first build",
        &tree(&a)?,
        &first.clean(&cache, "clean-a")?,
    );
    assert_same(
        "the second build",
        &tree(&b)?,
        &second.clean(&cache, "clean-b")?,
    );
    Ok(())
}

/// Mounts a tmpfs of `size` at `dir` for as long as it lives.
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path, size: &str) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()?;
        anyhow::ensure!(status.success(), "mount -t tmpfs failed");
        Ok(Self(dir.to_owned()))
    }

    fn resize(&self, size: &str) -> anyhow::Result<()> {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .status()?;
        anyhow::ensure!(status.success(), "remounting the tmpfs failed");
        Ok(())
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_disk_that_fills_mid_build_loses_neither_the_output_nor_the_cache() -> anyhow::Result<()> {
    if std::fs::metadata("/proc/self")?.uid() != 0 {
        eprintln!("skipped: mounting a small tmpfs needs root (CI runs as root)");
        return Ok(());
    }
    let project = Project::new()?;
    let warm = project.path("warm");
    project.build(&project.path("warm-out"), &warm)?;
    let reference = project.clean(&warm, "clean")?;
    let size: u64 = reference.values().map(|b| b.len() as u64).sum();

    // The output and the cache on a disk with room for one output and a cache with the
    // bundle, not for the second output that a publish stages beside the first.
    let disk = project.path("disk");
    let mount = Mount::tmpfs(&disk, &format!("{}k", (size * 5 / 2) / 1024))?;
    let (cache, dist) = (disk.join("cache"), disk.join("dist"));
    copy_dir(&warm.join("bundles"), &cache.join("bundles"))?;
    let first = project.command(&dist, &cache).output()?;
    let before = if first.status.success() {
        tree(&dist)?
    } else {
        // The cache's pages and their variants did not fit beside the output: give the first
        // build the room it needs, then fill the disk to the brim for the second.
        mount.resize(&format!("{}k", size * 4 / 1024))?;
        project.build(&dist, &cache)?;
        tree(&dist)?
    };
    assert_same("the first build", &before, &reference);
    replace(
        &project.site_yaml(),
        "  name: Nordvale",
        "  name: Nordvale Full",
    )?;
    let free = nix::sys::statvfs::statvfs(&disk)?;
    let left = free.blocks_available() as u64 * free.fragment_size() as u64;
    std::fs::write(
        disk.join("filler"),
        vec![0u8; (left.saturating_sub(size / 3)) as usize],
    )?;
    let failed = project.command(&dist, &cache).output()?;
    assert!(!failed.status.success(), "the build fit on the full disk");
    let message = String::from_utf8_lossy(&failed.stderr);
    assert!(message.contains("No space left on device"), "{message}");
    assert_same(
        "the output after a build that filled the disk",
        &tree(&dist)?,
        &before,
    );
    assert!(leftovers(&dist).is_empty(), "{:?}", leftovers(&dist));

    std::fs::remove_file(disk.join("filler"))?;
    mount.resize(&format!("{}k", size * 6 / 1024))?;
    project.build(&dist, &cache)?;
    let reference = project.clean(&warm, "clean-full")?;
    assert_same(
        "the build after the disk was freed",
        &tree(&dist)?,
        &reference,
    );
    drop(mount);
    Ok(())
}

fn sitegen(args: &[&str], cache: &Path) -> anyhow::Result<String> {
    let output = Command::new(SITEGEN)
        .args(args)
        .arg("--cache-dir")
        .arg(cache)
        .output()?;
    anyhow::ensure!(
        output.status.success(),
        "sitegen {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// How many pages a build rendered, from its summary line.
fn rendered(output: &Output) -> usize {
    let text = String::from_utf8_lossy(&output.stdout);
    text.split(" pages hashed, ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX)
}

#[test]
fn the_cache_shows_its_builds_and_prunes_to_the_last_ones() -> anyhow::Result<()> {
    let project = Project::new()?;
    let cache = project.path("cache");
    let build = |out: &str| -> anyhow::Result<usize> {
        let output = project.loud_command(&project.path(out), &cache).output()?;
        anyhow::ensure!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        Ok(rendered(&output))
    };
    build("a")?;
    replace(
        &project.site_yaml(),
        "  name: Nordvale",
        "  name: Nordvale B",
    )?;
    assert!(build("b")? > 60, "every page renders again");

    let shown = sitegen(&["cache"], &cache)?;
    assert!(shown.contains(&cache.display().to_string()), "{shown}");
    for out in ["a", "b"] {
        let out = project.path(out).display().to_string();
        assert!(shown.lines().any(|l| l.ends_with(&out)), "{out} in {shown}");
    }

    let pruned = sitegen(&["cache", "prune", "--keep-builds", "1"], &cache)?;
    assert!(
        pruned.contains("kept the entries of the last 1 builds"),
        "{pruned}"
    );
    let shown = sitegen(&["cache"], &cache)?;
    assert!(shown.contains("Used by none of them: 0 B"), "{shown}");
    assert_eq!(build("b")?, 0, "the last build's pages stay");
    replace(
        &project.site_yaml(),
        "  name: Nordvale B",
        "  name: Nordvale",
    )?;
    assert!(build("a")? > 60, "the first build's pages were pruned");

    // A size no build fits: the newest build's entries stay all the same.
    let pruned = sitegen(&["cache", "prune", "--max-size", "1KB"], &cache)?;
    assert!(
        pruned.contains("kept the entries of the last 1 builds"),
        "{pruned}"
    );
    assert_eq!(build("a")?, 0);
    Ok(())
}

/// The one memo file under `cache`.
fn memo_file(cache: &Path) -> anyhow::Result<PathBuf> {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(cache.join("memo"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    anyhow::ensure!(files.len() == 1, "memo files: {files:?}");
    Ok(files[0].clone())
}

#[test]
fn a_memo_damaged_on_disk_is_a_miss_when_it_is_read_and_is_made_again() -> anyhow::Result<()> {
    use sitegen::cache::{Cache, hash_hex};
    let dir = tempfile::tempdir()?;
    let key = hash_hex(&[b"the inputs of a step"]);
    let value = b"what the step made of them, as later builds would use it".to_vec();
    let cache = Cache::open(Some(dir.path()))?;
    cache.remember(&key, &value)?;
    assert_eq!(cache.recall(&key), Some(value.clone()));
    let file = memo_file(dir.path())?;
    let stored = std::fs::read(&file)?;

    // A bit flipped in the value, one in the hash stored with it, a tail lost: each read in a
    // build of its own (a fresh process would find it so), a miss, counted, and removed.
    let mut flipped_value = stored.clone();
    *flipped_value.last_mut().expect("bytes") ^= 0x10;
    let mut flipped_hash = stored.clone();
    flipped_hash[stored.len() - value.len() - 1] ^= 0x01;
    let torn = stored[..stored.len() - 5].to_vec();
    for damaged in [flipped_value, flipped_hash, torn] {
        std::fs::write(&file, &damaged)?;
        let cache = Cache::open(Some(dir.path()))?;
        assert_eq!(cache.recall(&key), None, "a damaged memo is a miss");
        assert_eq!(cache.damaged_memos(), 1);
        assert!(!file.exists(), "the damaged memo is removed");
        // The step runs again and remembers its value anew, which reads back whole.
        cache.remember(&key, &value)?;
        assert_eq!(cache.recall(&key), Some(value.clone()));
        assert_eq!(std::fs::read(&file)?, stored);
    }

    // A memo of an older sitegen, without the hash: a miss too, but no damage.
    std::fs::write(&file, &value)?;
    let cache = Cache::open(Some(dir.path()))?;
    assert_eq!(cache.recall(&key), None);
    assert_eq!(cache.damaged_memos(), 0);
    Ok(())
}
