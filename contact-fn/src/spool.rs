//! Writes an uploaded file into its spool file on the blocking pool while its next bytes
//! arrive, so that an upload costs about as long as the slowest of the network, the disk and
//! the hash rather than receiving, hashing and writing one after another.
//!
//! The pieces of a file multer yields are gathered without
//! being copied and handed over in batches: each batch is written on one thread of the blocking
//! pool and, at the same time, hashed (and checked for text) on another, while the next is
//! gathered. The writeback of the written bytes to the disk is started as they go, so the fsync
//! once the file is whole finds little left to write.

use std::fs::File;
use std::io::{self, IoSlice, Write as _};
use std::sync::Arc;

use axum::body::Bytes;
use ring::digest;
use tokio::task::JoinHandle;

use crate::attachment::TextCheck;

/// Most bytes gathered before they are handed over; one batch is written while the next is
/// gathered, so a file holds at most about twice this in memory. Each hand-over wakes threads
/// that were waiting (on the 2-core development machine about 0.2 ms of CPU a batch, in
/// context switches): a 10 MB upload took 31 ms of the service's CPU in batches of 256 KiB,
/// 25 in 512 KiB and 21 in 1 MiB, with the peak RSS of 20 concurrent uploads 31, 36 and 45 MiB
/// above idle (up to 56 once). 512 KiB keeps the memory of before for most of the gain.
const BATCH_BYTES: usize = 512 * 1024;

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
    /// The file and the digest when no batch is in work.
    idle: Option<(Writer, Digest)>,
    /// The batch in work, which gives them back.
    busy: Option<Busy>,
}

/// A batch being written and, at the same time on another thread, hashed.
#[derive(Debug)]
struct Busy {
    writing: JoinHandle<io::Result<Writer>>,
    digesting: JoinHandle<Digest>,
}

/// A spool file once whole: written, its writeback started, not yet durable (the file store
/// fsyncs it as it takes it, at the same time as the folders and the record that name it; the
/// PostgreSQL store copies it into a transaction and needs no fsync of it).
#[derive(Debug)]
pub struct Written {
    /// The file.
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
            idle: Some((
                Writer {
                    file,
                    size: 0,
                    written_back: 0,
                },
                Digest {
                    hash: digest::Context::new(&digest::SHA256),
                    text: TextCheck::default(),
                },
            )),
            busy: None,
        }
    }

    /// Takes the next piece of the file; a full batch is handed over once the one before it is
    /// written and hashed.
    pub async fn push(&mut self, piece: Bytes) -> io::Result<()> {
        self.gathered_bytes += piece.len();
        self.gathered.push(piece);
        if self.gathered_bytes >= BATCH_BYTES || self.gathered.len() >= BATCH_PIECES {
            let (mut writer, mut digest) = self.workers().await?;
            let batch = self.take_batch();
            let hashed = batch.clone();
            self.busy = Some(Busy {
                writing: tokio::task::spawn_blocking(move || {
                    writer.write(&batch)?;
                    Ok(writer)
                }),
                digesting: tokio::task::spawn_blocking(move || {
                    digest.update(&hashed);
                    digest
                }),
            });
        }
        Ok(())
    }

    /// Writes what is left and starts its writeback; the store makes the file durable.
    pub async fn finish(mut self) -> io::Result<Written> {
        let (mut writer, mut digest) = self.workers().await?;
        let batch = self.take_batch();
        let hashed = batch.clone();
        let writing = tokio::task::spawn_blocking(move || {
            writer.write(&batch)?;
            start_writeback(
                &writer.file,
                writer.written_back,
                writer.size - writer.written_back,
            );
            Ok::<_, io::Error>(writer.file)
        });
        let digesting = tokio::task::spawn_blocking(move || {
            digest.update(&hashed);
            digest
        });
        let (file, digest) = (writing.await, digesting.await);
        let digest = digest.map_err(io::Error::other)?;
        Ok(Written {
            file: file.map_err(io::Error::other)??,
            sha256: digest.hash.finish(),
            text: digest.text,
        })
    }

    fn take_batch(&mut self) -> Arc<[Bytes]> {
        self.gathered_bytes = 0;
        std::mem::replace(&mut self.gathered, Vec::with_capacity(BATCH_PIECES)).into()
    }

    /// The writer and the digest, once the batch in work (if any) is written and hashed.
    async fn workers(&mut self) -> io::Result<(Writer, Digest)> {
        if let Some(busy) = self.busy.take() {
            // Both are waited for, so that no thread still reads a batch when this returns.
            let (writer, digest) = (busy.writing.await, busy.digesting.await);
            let digest = digest.map_err(io::Error::other)?;
            return Ok((writer.map_err(io::Error::other)??, digest));
        }
        self.idle
            .take()
            .ok_or_else(|| io::Error::other("the spool file failed before"))
    }
}

/// The spool file, moved to the blocking pool for each batch.
#[derive(Debug)]
struct Writer {
    file: File,
    size: u64,
    /// Bytes whose writeback was started.
    written_back: u64,
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
        self.size += batch.iter().map(|piece| piece.len() as u64).sum::<u64>();
        if self.size - self.written_back >= WRITEBACK_BYTES {
            start_writeback(&self.file, self.written_back, self.size - self.written_back);
            self.written_back = self.size;
        }
        Ok(())
    }
}

/// What is learnt of the bytes as they go, on a thread of the blocking pool beside the
/// writer's: SHA-256 (SHA-NI through ring: about as long as the write here, 8 ms for 10 MB) and
/// whether they are text.
struct Digest {
    hash: digest::Context,
    text: TextCheck,
}

impl std::fmt::Debug for Digest {
    // ring's digest context has no Debug.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Digest")
            .field("text", &self.text)
            .finish_non_exhaustive()
    }
}

impl Digest {
    fn update(&mut self, batch: &[Bytes]) {
        for piece in batch {
            self.hash.update(piece);
            self.text.update(piece);
        }
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
