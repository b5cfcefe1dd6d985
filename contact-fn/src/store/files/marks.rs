//! Things that may happen once as files, one empty file each named `<bound>-<key>`, created
//! with `create_new` so that of two racing requests only one makes it: spent proof-of-work
//! challenges (`challenges/<expires_ms>-<challenge>`) and auto-replies
//! (`auto-replies/<day>-<address key>`). The bound says when the file may be forgotten.

use std::fs;
use std::io::ErrorKind;
use std::path::PathBuf;

use anyhow::Context as _;

use crate::durable;
use crate::store::{AutoReplyStore, BoxFuture, ChallengeStore};

/// The marks in a folder of the data folder.
#[derive(Debug)]
pub struct FileMarks {
    dir: PathBuf,
}

impl FileMarks {
    /// Opens (creating if needed) the folder.
    pub fn open(dir: PathBuf) -> anyhow::Result<Self> {
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Self { dir })
    }

    /// Makes the mark `<bound>-<key>`; `false` when it was made before. `key` must be a safe
    /// file name (hex).
    fn mark(&self, bound: u64, key: &str) -> BoxFuture<'_, anyhow::Result<bool>> {
        let name = format!("{bound}-{key}");
        let dir = self.dir.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                match fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(dir.join(&name))
                {
                    Ok(file) => {
                        file.sync_all()?;
                        durable::sync_dir(&dir)?;
                        Ok(true)
                    }
                    Err(error) if error.kind() == ErrorKind::AlreadyExists => Ok(false),
                    Err(error) => Err(anyhow::Error::new(error).context(format!("marking {name}"))),
                }
            })
            .await?
        })
    }

    /// Forgets the marks whose bound is at most `through`.
    fn forget_through(&self, through: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        let dir = self.dir.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                for entry in fs::read_dir(&dir)?.flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let done = name
                        .split_once('-')
                        .and_then(|(bound, _)| bound.parse::<u64>().ok())
                        .is_some_and(|bound| bound <= through);
                    if done {
                        fs::remove_file(entry.path())?;
                    }
                }
                Ok(())
            })
            .await?
        })
    }
}

impl ChallengeStore for FileMarks {
    fn spend<'a>(
        &'a self,
        challenge: &'a str,
        expires_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<bool>> {
        // The challenge is hex (checked before), so it is a safe file name.
        self.mark(expires_ms, challenge)
    }

    fn prune(&self, now_ms: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        self.forget_through(now_ms)
    }
}

impl AutoReplyStore for FileMarks {
    fn claim<'a>(&'a self, address_key: &'a str, day: u64) -> BoxFuture<'a, anyhow::Result<bool>> {
        self.mark(day, address_key)
    }

    fn prune(&self, day: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        self.forget_through(day.saturating_sub(1))
    }
}
