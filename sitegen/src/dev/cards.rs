//! The thread that draws the cards `sitegen dev`'s pages name and nobody has drawn yet.
//!
//! A load names every card by its words at once ([`crate::cards::name_for_dev`]); the cards
//! its memo does not know come here, to be drawn or found in the build cache one after
//! another at the lowest priority, so the Vite dev server answering the first page keeps the
//! processor it needs. The newest load's list replaces one still being drawn, and what is done
//! goes back to the dev loop in batches, which it lists for the dev server to serve.

use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use crate::cache::Cache;
use crate::cards::{CardBase, CardMemo, PendingCard};

use super::lower_priority;

/// How long the thread draws before it hands over what it drew: a long list is listed for the
/// dev server as it goes, without rewriting the list for every card.
const BATCH: Duration = Duration::from_millis(250);

/// What the thread tells the dev loop.
#[derive(Debug)]
pub(super) enum Drawn {
    /// Cards drawn or found: URL path and stored file of each.
    Files(Vec<(String, PathBuf)>),
    /// Every card of the newest list is done.
    Finished { cards: usize, took: Duration },
    /// A card could not be drawn or stored; the rest of its list is left to the next save.
    Failed(String),
}

/// The dev loop's end of the thread: lists go in, [`Drawn`] comes out. Dropping it ends the
/// thread after the card it is drawing.
pub(super) struct Drawer {
    lists: mpsc::Sender<Vec<PendingCard>>,
    drawn: tokio::sync::mpsc::UnboundedReceiver<Drawn>,
}

impl Drawer {
    pub(super) fn start(cache: Arc<Cache>, memo: Arc<CardMemo>) -> anyhow::Result<Self> {
        let (lists, inbox) = mpsc::channel();
        let (outbox, drawn) = tokio::sync::mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("sitegen-cards".into())
            .spawn(move || work(&cache, &memo, &inbox, &outbox))?;
        Ok(Self { lists, drawn })
    }

    /// Hands over the newest load's pending cards, in place of any list still being drawn.
    pub(super) fn draw(&self, pending: Vec<PendingCard>) {
        // The thread ends only when this end is dropped.
        let _ = self.lists.send(pending);
    }

    /// The next news from the thread; pending forever once it has ended.
    pub(super) async fn next(&mut self) -> Drawn {
        match self.drawn.recv().await {
            Some(drawn) => drawn,
            None => std::future::pending().await,
        }
    }
}

fn work(
    cache: &Cache,
    memo: &CardMemo,
    inbox: &mpsc::Receiver<Vec<PendingCard>>,
    outbox: &tokio::sync::mpsc::UnboundedSender<Drawn>,
) {
    lower_priority();
    let mut list: Vec<PendingCard> = Vec::new();
    let mut next = 0;
    let base = CardBase::default();
    let mut started = Instant::now();
    loop {
        // Idle until a list comes; then the newest of those waiting replaces the one in hand.
        let newest = if next == list.len() {
            match inbox.recv() {
                Ok(newer) => Some(newer),
                Err(mpsc::RecvError) => return,
            }
        } else {
            None
        };
        if let Some(newest) = inbox.try_iter().last().or(newest) {
            (list, next) = (newest, 0);
            started = Instant::now();
        }
        let batch = Instant::now();
        let mut files = Vec::new();
        while next < list.len() && batch.elapsed() < BATCH {
            let card = &list[next];
            next += 1;
            match super::draw_card(cache, &base, card, memo) {
                Ok(served) => files.push(served),
                Err(err) => {
                    if outbox
                        .send(Drawn::Failed(format!("{}: {err:#}", card.file)))
                        .is_err()
                    {
                        return;
                    }
                    (list, next) = (Vec::new(), 0);
                }
            }
        }
        if !files.is_empty() && outbox.send(Drawn::Files(files)).is_err() {
            return;
        }
        if next == list.len() && !list.is_empty() {
            let finished = Drawn::Finished {
                cards: list.len(),
                took: started.elapsed(),
            };
            list.clear();
            next = 0;
            if outbox.send(finished).is_err() {
                return;
            }
        }
    }
}
