//! Watching content/ and site/public for saves.
//!
//! `notify` delivers the operating system's file events (inotify here). An editor's save is
//! several of them (write a temporary file, rename it over, touch metadata), so the caller waits
//! for a short quiet spell before acting: [`Watch::next_save`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use notify::{EventKind, RecursiveMode, Watcher as _};
use tokio::sync::mpsc;

/// How long the files must stay quiet before a batch of events counts as one save.
const QUIET: Duration = Duration::from_millis(25);

/// File events from the watched directories, with the watcher that produces them.
#[derive(Debug)]
pub struct Watch {
    _watcher: notify::RecommendedWatcher,
    events: mpsc::UnboundedReceiver<PathBuf>,
}

impl Watch {
    /// Watches `content` (its YAML and Markdown files) and `public` (every file), recursively.
    pub fn start(content: &Path, public: &Path) -> anyhow::Result<Self> {
        let (tx, events) = mpsc::unbounded_channel();
        let content_root = content.to_owned();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let Ok(event) = event else { return };
                if matches!(event.kind, EventKind::Access(_)) {
                    return;
                }
                for path in event.paths {
                    if !path.starts_with(&content_root) || is_content_file(&path) {
                        let _ = tx.send(path);
                    }
                }
            })
            .context("starting the file watcher")?;
        for dir in [content, public] {
            if dir.is_dir() {
                watcher
                    .watch(dir, RecursiveMode::Recursive)
                    .with_context(|| format!("watching {}", dir.display()))?;
            }
        }
        Ok(Self {
            _watcher: watcher,
            events,
        })
    }

    /// Waits for the next save: the first event, then quiet for [`QUIET`]. Returns the files
    /// touched, or `None` when the watcher has stopped.
    pub async fn next_save(&mut self) -> Option<Vec<PathBuf>> {
        let mut changed = vec![self.events.recv().await?];
        while let Ok(Some(path)) = tokio::time::timeout(QUIET, self.events.recv()).await {
            if !changed.contains(&path) {
                changed.push(path);
            }
        }
        Some(changed)
    }
}

/// A file the content model reads: YAML now, Markdown once articles exist. Editors' swap and
/// backup files are not.
fn is_content_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml" | "md")
    )
}
