//! Writes that survive a crash or power loss once they return.
//!
//! A file is written under a temporary name, fsynced, renamed into place and then the
//! folder is fsynced, so a reader sees either nothing or the whole file, never a part.

use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Prefix of temporary files; leftovers from a crash are removed at start-up once they are
/// older than [`LEFTOVER_AGE`].
pub const TEMP_PREFIX: &str = ".tmp";

/// Age from which a temporary file is a leftover. A younger one may belong to a write in
/// progress in another process: the operator commands open the folders while the service
/// runs, and removing its temporary file would fail that write.
pub const LEFTOVER_AGE: Duration = Duration::from_secs(3600);

/// Atomically replaces `dir/name` with `bytes`, durably.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    write_all(dir, &[(name, bytes)])
}

/// Atomically replaces each `dir/name` with its bytes, durably, with one fsync of `dir` for
/// them all: every file is whole once this returns, though a crash before it may leave some
/// of them written and others not.
pub fn write_all(dir: &Path, files: &[(&str, &[u8])]) -> io::Result<()> {
    let mut written = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        let mut file = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .tempfile_in(dir)?;
        file.write_all(bytes)?;
        file.as_file().sync_all()?;
        written.push((file, name));
    }
    for (file, name) in written {
        file.persist(dir.join(name)).map_err(|e| e.error)?;
    }
    sync_dir(dir)
}

/// Atomically replaces `dir/name` with `bytes`, durably, once `first` returned: `first` runs on
/// a thread of its own while the file is written and fsynced under its temporary name, and the
/// file is renamed into place only when both are done. So a file that names others (a message
/// its attachments) appears only once what `first` makes durable is, and the two wait for the
/// disk at the same time rather than one after the other. If `first` fails, nothing is renamed.
pub fn write_after(
    dir: &Path,
    name: &str,
    bytes: &[u8],
    first: impl FnOnce() -> io::Result<()> + Send,
) -> io::Result<()> {
    std::thread::scope(|scope| {
        let before = std::thread::Builder::new()
            .name("contact-fsync".to_owned())
            .spawn_scoped(scope, first)?;
        let written = (|| {
            let mut file = tempfile::Builder::new()
                .prefix(TEMP_PREFIX)
                .tempfile_in(dir)?;
            file.write_all(bytes)?;
            file.as_file().sync_all()?;
            Ok::<_, io::Error>(file)
        })();
        let before = before
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("a write before this one panicked")));
        let file = written?;
        before?;
        file.persist(dir.join(name)).map_err(|e| e.error)?;
        sync_dir(dir)
    })
}

/// Removes `dir/name` durably; a file already gone is not an error.
pub fn remove(dir: &Path, name: &str) -> io::Result<()> {
    match fs::remove_file(dir.join(name)) {
        Ok(()) => sync_dir(dir),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Makes renames and removals inside `dir` durable.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Deletes the temporary files a crash left behind in `dir`: those older than
/// [`LEFTOVER_AGE`]. A younger one is left for a later start, since it may still be written.
pub fn remove_leftovers(dir: &Path) -> io::Result<()> {
    let now = SystemTime::now();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
            continue;
        }
        let modified = entry.metadata()?.modified()?;
        if now.duration_since(modified).unwrap_or_default() < LEFTOVER_AGE {
            continue;
        }
        match fs::remove_file(entry.path()) {
            // Its write finished (renamed) or failed (removed) meanwhile.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            removed => removed?,
        }
    }
    Ok(())
}

/// Milliseconds since the Unix epoch, the clock of every persisted time.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_replaces_and_remove_forgets() {
        let dir = tempfile::tempdir().expect("temp dir");
        write(dir.path(), "a.json", b"one").expect("first write");
        write(dir.path(), "a.json", b"two").expect("second write");
        assert_eq!(fs::read(dir.path().join("a.json")).expect("read"), b"two");
        remove(dir.path(), "a.json").expect("remove");
        remove(dir.path(), "a.json").expect("removing twice is fine");
        assert_eq!(fs::read_dir(dir.path()).expect("list").count(), 0);
    }

    #[test]
    fn write_all_writes_every_file_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        write(dir.path(), "b.json", b"old").expect("first write");
        write_all(dir.path(), &[("a.json", b"one"), ("b.json", b"two")]).expect("write both");
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .collect();
        names.sort();
        assert_eq!(names, ["a.json", "b.json"]);
        assert_eq!(fs::read(dir.path().join("a.json")).expect("read"), b"one");
        assert_eq!(fs::read(dir.path().join("b.json")).expect("read"), b"two");
    }

    #[test]
    fn write_after_renames_only_once_the_first_work_succeeded() {
        let dir = tempfile::tempdir().expect("temp dir");
        let names = |dir: &Path| {
            let mut names: Vec<_> = fs::read_dir(dir)
                .expect("list")
                .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
                .collect();
            names.sort();
            names
        };
        let failed = write_after(dir.path(), "a.json", b"one", || {
            Err(io::Error::other("the files were not stored"))
        });
        assert!(failed.is_err());
        assert!(
            names(dir.path()).is_empty(),
            "no file, not even a temporary one"
        );
        let other = dir.path().join("first");
        write_after(dir.path(), "a.json", b"two", || fs::create_dir(&other)).expect("written");
        assert_eq!(names(dir.path()), ["a.json", "first"]);
        assert_eq!(fs::read(dir.path().join("a.json")).expect("read"), b"two");
    }

    #[test]
    fn old_leftovers_are_removed_and_real_files_and_writes_in_progress_kept() {
        let dir = tempfile::tempdir().expect("temp dir");
        let old = File::create(dir.path().join(".tmpOLD")).expect("create");
        let crashed = SystemTime::now() - LEFTOVER_AGE - Duration::from_secs(1);
        old.set_modified(crashed).expect("age the leftover");
        // What another process is writing right now.
        let mut writing = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .tempfile_in(dir.path())
            .expect("temporary file");
        writing.write_all(b"half").expect("write");
        fs::write(dir.path().join("keep.json"), b"{}").expect("write");
        remove_leftovers(dir.path()).expect("clean");
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .collect();
        names.sort();
        let in_progress = writing.path().file_name().expect("name").to_string_lossy();
        assert_eq!(names, [in_progress.as_ref(), "keep.json"]);
        writing
            .persist(dir.path().join("written.json"))
            .expect("the write in progress still finishes");
    }
}
