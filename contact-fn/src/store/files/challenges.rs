//! Spent proof-of-work challenges as files: `challenges/<expires_ms>-<challenge>`, created
//! with `create_new` so that of two submissions with one solution only one spends it.

use std::fs;
use std::io::ErrorKind;
use std::path::PathBuf;

use anyhow::Context as _;

use crate::durable;
use crate::store::{BoxFuture, ChallengeStore};

/// The spent challenges in a folder of the data folder.
#[derive(Debug)]
pub struct FileChallenges {
    dir: PathBuf,
}

impl FileChallenges {
    /// Opens (creating if needed) the folder.
    pub fn open(dir: PathBuf) -> anyhow::Result<Self> {
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Self { dir })
    }
}

impl ChallengeStore for FileChallenges {
    fn spend<'a>(
        &'a self,
        challenge: &'a str,
        expires_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<bool>> {
        // The challenge is hex (checked before), so it is a safe file name.
        let name = format!("{expires_ms}-{challenge}");
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
                    Err(error) => Err(anyhow::Error::new(error).context("spending a challenge")),
                }
            })
            .await?
        })
    }

    fn prune(&self, now_ms: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        let dir = self.dir.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                for entry in fs::read_dir(&dir)?.flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let expired = name
                        .split_once('-')
                        .and_then(|(expires, _)| expires.parse::<u64>().ok())
                        .is_some_and(|expires| expires <= now_ms);
                    if expired {
                        fs::remove_file(entry.path())?;
                    }
                }
                Ok(())
            })
            .await?
        })
    }
}
