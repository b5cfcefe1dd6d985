//! Writes an uploaded file into its spool file on the blocking pool while its next bytes
//! arrive, so that an upload costs about as long as the slower of the network and the disk
//! rather than receiving and writing one after the other.
//!
//! The pieces of a file the multipart parser yields are gathered without being copied and
//! handed over in batches: each batch is written, and its CRC-32 taken (and checked for text),
//! on a thread of the blocking pool while the next is gathered. The writeback of the written
//! bytes to the disk is started as they go, so the fsync once the file is whole finds little
//! left to write. The SHA-256 the webhook lists is not taken here: at about 9 ms for 10 MB it
//! was most of what an upload cost beyond writing it, and delivery takes it from the stored
//! file, once the CRC-32 says it is the one received.

use std::fs::File;
use std::io::{self, IoSlice, Write as _};
use std::sync::Arc;

use axum::body::Bytes;
use tokio::task::JoinHandle;

use crate::attachment::TextCheck;

/// Most bytes gathered before they are handed over; one batch is written while the next is
/// gathered, so a file holds at most about twice this in memory. Each hand-over wakes a thread
/// of the blocking pool (on the 2-core development machine about 0.2 ms of CPU, in context
/// switches): with the SHA-256 left to delivery, a 10 MB upload cost the service 12.4-13.9 ms
/// of CPU in batches of 1 MiB against 14.4-16.8 in 512 KiB, and beyond a message without a file
/// 11.2-12.1 ms against 11.9-14.3 (dd writing the same bytes: 11.5-12.3), for a peak RSS of 20
/// concurrent uploads 29-49 MiB above idle (the target is 64).
const BATCH_BYTES: usize = 1024 * 1024;

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
    /// The writer when no batch is in work.
    idle: Option<Writer>,
    /// The batch in work, which gives it back.
    busy: Option<JoinHandle<io::Result<Writer>>>,
}

/// A spool file once whole: written, its writeback started, not yet durable (the file store
/// fsyncs it as it takes it, at the same time as the folders and the record that name it; the
/// PostgreSQL store copies it into a transaction and needs no fsync of it).
#[derive(Debug)]
pub struct Written {
    /// The file.
    pub file: File,
    /// CRC-32 of its bytes.
    pub crc32: u32,
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
                size: 0,
                written_back: 0,
                crc32: crc32fast::Hasher::new(),
                text: TextCheck::default(),
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

    /// Writes what is left and starts its writeback; the store makes the file durable.
    pub async fn finish(mut self) -> io::Result<Written> {
        let mut writer = self.writer().await?;
        let batch = self.take_batch();
        tokio::task::spawn_blocking(move || {
            writer.write(&batch)?;
            start_writeback(
                &writer.file,
                writer.written_back,
                writer.size - writer.written_back,
            );
            Ok(Written {
                file: writer.file,
                crc32: writer.crc32.finalize(),
                text: writer.text,
            })
        })
        .await
        .map_err(io::Error::other)?
    }

    fn take_batch(&mut self) -> Arc<[Bytes]> {
        self.gathered_bytes = 0;
        std::mem::replace(&mut self.gathered, Vec::with_capacity(BATCH_PIECES)).into()
    }

    /// The writer, once the batch in work (if any) is written.
    async fn writer(&mut self) -> io::Result<Writer> {
        if let Some(busy) = self.busy.take() {
            return busy.await.map_err(io::Error::other)?;
        }
        self.idle
            .take()
            .ok_or_else(|| io::Error::other("the spool file failed before"))
    }
}

/// The spool file and what is learnt of its bytes as they go (their CRC-32, 0.6 ms for 10 MB
/// here, and whether they are text), moved to the blocking pool for each batch.
struct Writer {
    file: File,
    size: u64,
    /// Bytes whose writeback was started.
    written_back: u64,
    crc32: crc32fast::Hasher,
    text: TextCheck,
}

impl std::fmt::Debug for Writer {
    // crc32fast's hasher has no Debug.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("size", &self.size)
            .field("text", &self.text)
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
            self.size += piece.len() as u64;
            self.crc32.update(piece);
            self.text.update(piece);
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
