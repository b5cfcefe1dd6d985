//! Writes an uploaded file into its spool file on the blocking pool while its next bytes
//! arrive, so that an upload costs about as long as the slower of the network and the disk
//! rather than receiving, hashing and writing one after another.
//!
//! The pieces multer yields are gathered without being copied and handed over in batches: one
//! batch is hashed (and checked for text) and written on the blocking pool while the next is
//! gathered. The writeback of the written bytes to the disk is started as they go, so the fsync
//! once the file is whole finds little left to write.

use std::fs::File;
use std::io::{self, IoSlice, Write as _};

use axum::body::Bytes;
use ring::digest;
use tokio::task::JoinHandle;

use crate::attachment::TextCheck;

/// Most bytes gathered before they are handed over; one batch is written while the next is
/// gathered, so a file holds at most about twice this in memory.
const BATCH_BYTES: usize = 256 * 1024;

/// Most pieces in a batch: a client sending its bytes a few at a time would otherwise have a
/// batch hold an allocation for each.
const BATCH_PIECES: usize = 64;

/// Bytes written between two starts of their writeback.
const WRITEBACK_BYTES: u64 = 1024 * 1024;

/// A spool file being written.
#[derive(Debug)]
pub struct Spool {
    gathered: Vec<Bytes>,
    gathered_bytes: usize,
    /// The writer when no batch is being written.
    idle: Option<Writer>,
    /// The batch being written, which gives the writer back.
    busy: Option<JoinHandle<io::Result<Writer>>>,
}

/// A spool file once whole and durable.
#[derive(Debug)]
pub struct Written {
    /// The file, fsynced.
    pub file: File,
    /// SHA-256 of its bytes.
    pub sha256: digest::Digest,
    /// What it says of being plain text.
    pub text: TextCheck,
}

impl Spool {
    /// Starts writing into `file` (empty).
    pub fn new(file: File) -> Self {
        Spool {
            gathered: Vec::with_capacity(BATCH_PIECES),
            gathered_bytes: 0,
            idle: Some(Writer {
                file,
                hash: digest::Context::new(&digest::SHA256),
                text: TextCheck::default(),
                size: 0,
                written_back: 0,
            }),
            busy: None,
        }
    }

    /// Takes the next piece of the file; a full batch is handed over once the one before it is
    /// written.
    pub async fn push(&mut self, piece: Bytes) -> io::Result<()> {
        self.gathered_bytes += piece.len();
        self.gathered.push(piece);
        if self.gathered_bytes >= BATCH_BYTES || self.gathered.len() >= BATCH_PIECES {
            let mut writer = self.writer().await?;
            let batch = self.take_batch();
            self.busy = Some(tokio::task::spawn_blocking(move || {
                writer.write(&batch)?;
                Ok(writer)
            }));
        }
        Ok(())
    }

    /// Writes what is left and fsyncs the file.
    pub async fn finish(mut self) -> io::Result<Written> {
        let mut writer = self.writer().await?;
        let batch = self.take_batch();
        tokio::task::spawn_blocking(move || {
            writer.write(&batch)?;
            writer.file.sync_all()?;
            Ok(Written {
                file: writer.file,
                sha256: writer.hash.finish(),
                text: writer.text,
            })
        })
        .await
        .map_err(io::Error::other)?
    }

    fn take_batch(&mut self) -> Vec<Bytes> {
        self.gathered_bytes = 0;
        std::mem::replace(&mut self.gathered, Vec::with_capacity(BATCH_PIECES))
    }

    /// The writer, once the batch being written (if any) is.
    async fn writer(&mut self) -> io::Result<Writer> {
        if let Some(busy) = self.busy.take() {
            return busy.await.map_err(io::Error::other)?;
        }
        self.idle
            .take()
            .ok_or_else(|| io::Error::other("the spool file failed before"))
    }
}

/// The file and what is learnt of its bytes, moved to the blocking pool for each batch.
struct Writer {
    file: File,
    hash: digest::Context,
    text: TextCheck,
    size: u64,
    /// Bytes whose writeback was started.
    written_back: u64,
}

impl std::fmt::Debug for Writer {
    // ring's digest context has no Debug.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("file", &self.file)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl Writer {
    fn write(&mut self, batch: &[Bytes]) -> io::Result<()> {
        let mut slices: Vec<IoSlice<'_>> = batch.iter().map(|piece| IoSlice::new(piece)).collect();
        let mut rest = &mut slices[..];
        while !rest.is_empty() {
            match self.file.write_vectored(rest) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => IoSlice::advance_slices(&mut rest, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        for piece in batch {
            self.hash.update(piece);
            self.text.update(piece);
            self.size += piece.len() as u64;
        }
        if self.size - self.written_back >= WRITEBACK_BYTES {
            start_writeback(&self.file, self.written_back, self.size - self.written_back);
            self.written_back = self.size;
        }
        Ok(())
    }
}

/// Starts writing `len` bytes of `file` from `offset` to the disk, without waiting for them.
/// On Linux, `POSIX_FADV_DONTNEED` starts the writeback of a range's dirty pages (PostgreSQL
/// relies on it where `sync_file_range` is missing; this crate forbids the unsafe code that
/// calling the latter would take) and drops only pages already clean, which those just
/// written are not. Advice only: whatever comes of it, the fsync at the end makes the file
/// durable.
#[cfg(target_os = "linux")]
fn start_writeback(file: &File, offset: u64, len: u64) {
    if let Some(len) = std::num::NonZeroU64::new(len) {
        let _ = rustix::fs::fadvise(file, offset, Some(len), rustix::fs::Advice::DontNeed);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_file: &File, _offset: u64, _len: u64) {}
