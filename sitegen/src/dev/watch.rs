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
use tokio::time::Instant;

/// How long the files must stay quiet before a batch of events counts as one save.
const QUIET: Duration = Duration::from_millis(25);

/// File events from the watched directories, with the watcher that produces them.
#[derive(Debug)]
pub struct Watch {
    /// `None` in the unit tests, which send the events themselves.
    _watcher: Option<notify::RecommendedWatcher>,
    events: mpsc::UnboundedReceiver<PathBuf>,
    /// The files of the save being gathered, and when its quiet spell ends. Kept here, not in
    /// [`Watch::next_save`]'s future: the dev loop waits for a save and for other news at
    /// once, and a future dropped for the other news must lose neither the files it took from
    /// the channel nor the quiet it already waited (cards drawn at 5,000 articles are news
    /// every few milliseconds; a save's files dropped with its future were never shown).
    pending: Vec<PathBuf>,
    quiet_at: Option<Instant>,
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
        Ok(Self::of(Some(watcher), events))
    }

    fn of(
        watcher: Option<notify::RecommendedWatcher>,
        events: mpsc::UnboundedReceiver<PathBuf>,
    ) -> Self {
        Self {
            _watcher: watcher,
            events,
            pending: Vec::new(),
            quiet_at: None,
        }
    }

    /// Waits for the next save: the first event, then quiet for [`QUIET`] after the last one.
    /// Returns the files touched, or `None` when the watcher has stopped. Cancel-safe: dropped
    /// before it returns, it keeps what it gathered for the next call.
    pub async fn next_save(&mut self) -> Option<Vec<PathBuf>> {
        loop {
            // A save is being gathered exactly when its quiet spell has an end.
            let Some(quiet_at) = self.quiet_at else {
                let path = self.events.recv().await?;
                self.gather(path);
                continue;
            };
            match tokio::time::timeout_at(quiet_at, self.events.recv()).await {
                Ok(Some(path)) => self.gather(path),
                // Quiet, or the watcher stopped: the save gathered is whole.
                Ok(None) | Err(_) => {
                    self.quiet_at = None;
                    return Some(std::mem::take(&mut self.pending));
                }
            }
        }
    }

    /// Adds `path` to the save being gathered, whose quiet spell starts again.
    fn gather(&mut self, path: PathBuf) {
        if !self.pending.contains(&path) {
            self.pending.push(path);
        }
        self.quiet_at = Some(Instant::now() + QUIET);
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

#[cfg(test)]
mod tests {
    use super::*;

    // On tokio's paused clock (`start_paused`): time moves only to the next timer when nothing
    // else can run, so the order of the timers below is the same on any machine.

    fn watch() -> (mpsc::UnboundedSender<PathBuf>, Watch) {
        let (tx, events) = mpsc::unbounded_channel();
        (tx, Watch::of(None, events))
    }

    #[tokio::test(start_paused = true)]
    async fn a_save_interrupted_while_gathering_is_returned_by_the_next_wait() {
        let (tx, mut watch) = watch();
        tx.send(PathBuf::from("articles/a.md")).expect("sent");
        // Dropped in the quiet spell, after it took the file from the channel.
        let interrupted = tokio::time::timeout(Duration::from_millis(5), watch.next_save()).await;
        assert!(
            interrupted.is_err(),
            "returned before the quiet spell: {interrupted:?}"
        );
        let save = tokio::time::timeout(Duration::from_secs(5), watch.next_save()).await;
        assert_eq!(
            save.ok().flatten(),
            Some(vec![PathBuf::from("articles/a.md")])
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_save_interrupted_again_and_again_still_ends_after_its_quiet_spell() {
        let (tx, mut watch) = watch();
        tx.send(PathBuf::from("pages/home.yaml")).expect("sent");
        tx.send(PathBuf::from("pages/home.yaml")).expect("sent");
        // Waits shorter than the quiet spell, as other news cuts them in the dev loop: each
        // goes on with the quiet the last one waited rather than starting it again.
        let mut waits = 0;
        let save = loop {
            waits += 1;
            assert!(waits <= 200, "no save after {waits} short waits");
            if let Ok(save) = tokio::time::timeout(QUIET / 5, watch.next_save()).await {
                break save;
            }
        };
        assert_eq!(save, Some(vec![PathBuf::from("pages/home.yaml")]));
    }

    #[tokio::test]
    async fn a_stopped_watcher_ends_the_saves_after_the_last_one() {
        let (tx, mut watch) = watch();
        tx.send(PathBuf::from("site.yaml")).expect("sent");
        drop(tx);
        assert_eq!(
            watch.next_save().await,
            Some(vec![PathBuf::from("site.yaml")])
        );
        assert_eq!(watch.next_save().await, None);
    }
}
