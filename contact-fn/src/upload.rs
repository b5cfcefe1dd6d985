//! Reads a `multipart/form-data` body as a stream: the form's fields into memory (bounded),
//! each file straight into a spool file on disk while it is hashed and its type read, so that a
//! request holds no more than a small buffer whatever it sends.
//!
//! Every limit is enforced as the bytes arrive, before the next ones are read: the number of
//! files and their sizes (the form contract's [`ATTACHMENTS`]), the number of parts, the size of
//! each part's headers and of the preamble, and the text of the fields together. multer parses
//! the parts; [`Framing`] watches the raw stream beneath it for what multer would buffer without
//! bound (headers that never end, a preamble that never meets the boundary) and hands it one
//! chunk per poll, so multer's buffer holds at most one chunk of the socket's.

use std::path::Path;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use form_contract::{ATTACHMENTS, ErrorCode, FieldError};
use futures_core::Stream;

use crate::attachment::{self, Attachment, HEAD_BYTES, Refusal, Sniffed};
use crate::durable;
use crate::spool::Spool;
use crate::submission::{self, RawFields, RawValue};

/// Most parts of a multipart body: the contact form has 12 with its honeypot, proof of work and
/// three files.
pub const MAX_PARTS: usize = 32;

/// Most bytes of a part's headers (a browser sends about 150).
pub const MAX_HEADER_BYTES: usize = 8 * 1024;

/// The limits of a multipart body besides the contract's file limits.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most parts (fields and files together).
    pub max_parts: usize,
    /// Most bytes of one part's headers, and of the preamble before the first part.
    pub max_header_bytes: usize,
    /// Most bytes of every text field's value together.
    pub max_field_bytes: usize,
}

impl Limits {
    /// Most bytes a whole body may have: the files, the fields and the framing of every part.
    pub fn max_body_bytes(&self) -> u64 {
        ATTACHMENTS.max_total_bytes
            + self.max_field_bytes as u64
            + (self.max_parts as u64 + 1) * (self.max_header_bytes as u64 + 80)
    }
}

/// A file read from a body: what it is, and its bytes in a spool file that is removed when
/// this is dropped (unless the store took the file away before).
#[derive(Debug)]
pub struct Spooled {
    /// Name, type, size and digest.
    pub attachment: Attachment,
    /// The spool file.
    pub path: tempfile::TempPath,
}

/// A body's fields and files.
#[derive(Debug, Default)]
pub struct Upload {
    /// The text fields, by name.
    pub fields: RawFields,
    /// The files of the attachments field, in the order sent.
    pub files: Vec<Spooled>,
}

/// Why a body was not read.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// A limit was passed (413): `limit` names it; `field` says what of the form it concerns,
    /// when it is a file limit.
    #[error("{message}")]
    TooLarge {
        /// Which limit, for the metrics: `parts`, `part_headers`, `fields`, or a file limit's
        /// error code.
        limit: &'static str,
        /// What was passed, in words.
        message: String,
        /// With a file limit: the code the form shows.
        code: Option<ErrorCode>,
    },
    /// A file was refused for its type (422), or sent under a name that takes no file.
    #[error("{}", .error.message)]
    Refused {
        /// The field the error is reported under.
        field: String,
        /// The code and message.
        error: FieldError,
    },
    /// Not a readable multipart body (400).
    #[error("The multipart body could not be read: {0}")]
    Malformed(String),
    /// The spool could not be written (503).
    #[error("storing an upload")]
    Io(#[source] anyhow::Error),
}

impl UploadError {
    fn too_large(limit: &'static str, message: String) -> Self {
        UploadError::TooLarge {
            limit,
            message,
            code: None,
        }
    }

    fn file_limit(code: ErrorCode, message: String) -> Self {
        UploadError::TooLarge {
            limit: code.as_str(),
            message,
            code: Some(code),
        }
    }

    /// The reason counted in the metrics of refused attachments, when the error refuses one.
    pub fn attachment_reason(&self) -> Option<&'static str> {
        match self {
            UploadError::TooLarge {
                code: Some(code), ..
            } => Some(code.as_str()),
            UploadError::Refused { error, .. } if error.code == ErrorCode::FileType => {
                Some(ErrorCode::FileType.as_str())
            }
            _ => None,
        }
    }
}

/// Megabytes of `bytes`, for messages.
fn megabytes(bytes: u64) -> String {
    let mb = bytes as f64 / (1024.0 * 1024.0);
    if mb.fract() == 0.0 {
        format!("{mb:.0} MB")
    } else {
        format!("{mb:.1} MB")
    }
}

/// The boundary of a `multipart/form-data` content type; an error when it has none, or more
/// than one (parsers in front of the service could pick another than this one).
pub fn boundary(content_type: &str) -> Result<String, UploadError> {
    let parameters = content_type.split(';').skip(1);
    let boundaries = parameters
        .filter(|p| {
            p.trim()
                .split('=')
                .next()
                .is_some_and(|k| k.trim().eq_ignore_ascii_case("boundary"))
        })
        .count();
    if boundaries > 1 {
        return Err(UploadError::Malformed(
            "the content type names more than one boundary".to_owned(),
        ));
    }
    multer::parse_boundary(content_type)
        .map_err(|_| UploadError::Malformed("the content type names no boundary".to_owned()))
}

/// Reads `body` (split by `boundary`) into its fields and files, writing files into `spool`.
/// Files are taken only under the contract's name and only when `files_allowed`.
pub async fn read<S, E>(
    body: S,
    boundary: String,
    limits: Limits,
    spool: &Path,
    files_allowed: bool,
) -> Result<Upload, UploadError>
where
    S: Stream<Item = Result<Bytes, E>> + Send + Unpin + 'static,
    E: Into<Box<dyn std::error::Error + Send + Sync>> + 'static,
{
    let framing = Framing::new(body, &boundary, limits);
    let constraints = multer::Constraints::new()
        .size_limit(multer::SizeLimit::new().whole_stream(limits.max_body_bytes()));
    let mut parts = multer::Multipart::with_constraints(framing, boundary, constraints);
    let mut upload = Upload::default();
    let mut field_bytes = 0_usize;
    let mut total = 0_u64;
    while let Some(mut part) = parts.next_field().await.map_err(from_multer)? {
        let name = part
            .name()
            .map(str::to_owned)
            .ok_or_else(|| UploadError::Malformed("a part has no name".to_owned()))?;
        match part.file_name().map(str::to_owned) {
            Some(file_name) => {
                if !files_allowed || name != ATTACHMENTS.name {
                    return Err(UploadError::Refused {
                        field: name,
                        error: FieldError {
                            code: ErrorCode::UnknownField,
                            message: "This form takes no file here.".to_owned(),
                        },
                    });
                }
                let declared = part.content_type().map(ToString::to_string);
                let spooled =
                    spool_file(&mut part, &file_name, declared, spool, &mut total, &upload).await?;
                if let Some(spooled) = spooled {
                    upload.files.push(spooled);
                }
            }
            None => {
                let mut value = Vec::new();
                while let Some(chunk) = part.chunk().await.map_err(from_multer)? {
                    field_bytes += chunk.len();
                    if field_bytes > limits.max_field_bytes {
                        return Err(UploadError::too_large(
                            "fields",
                            format!(
                                "The form's fields are longer than {} bytes together.",
                                limits.max_field_bytes
                            ),
                        ));
                    }
                    value.extend_from_slice(&chunk);
                }
                // Invalid UTF-8 is replaced by U+FFFD, as in a url-encoded form post.
                let text = String::from_utf8_lossy(&value).into_owned();
                submission::insert_field(&mut upload.fields, name, RawValue::Text(text));
            }
        }
    }
    Ok(upload)
}

/// Writes one file part into the spool, checking the limits as it arrives and its type once
/// it is whole. `None` for the empty part a file input with no file chosen sends.
async fn spool_file(
    part: &mut multer::Field<'static>,
    given_name: &str,
    declared: Option<String>,
    spool: &Path,
    total: &mut u64,
    upload: &Upload,
) -> Result<Option<Spooled>, UploadError> {
    let shown = attachment::clean_name(given_name);
    if upload.files.len() == ATTACHMENTS.max_files {
        return Err(UploadError::file_limit(
            ErrorCode::TooManyFiles,
            format!("At most {} files may be attached.", ATTACHMENTS.max_files),
        ));
    }
    let (file, path) = tempfile::Builder::new()
        .prefix(durable::TEMP_PREFIX)
        .tempfile_in(spool)
        .map_err(|e| UploadError::Io(anyhow::Error::new(e).context("creating a spool file")))?
        .into_parts();
    let mut file = Spool::new(file);
    let mut head = Vec::with_capacity(HEAD_BYTES);
    let mut size = 0_u64;
    let io =
        |e: std::io::Error| UploadError::Io(anyhow::Error::new(e).context("writing a spool file"));
    while let Some(chunk) = part.chunk().await.map_err(from_multer)? {
        size += chunk.len() as u64;
        *total += chunk.len() as u64;
        if size > ATTACHMENTS.max_file_bytes {
            return Err(UploadError::file_limit(
                ErrorCode::FileTooLarge,
                format!(
                    "\"{shown}\" is larger than {}, the most a file may have.",
                    megabytes(ATTACHMENTS.max_file_bytes)
                ),
            ));
        }
        if *total > ATTACHMENTS.max_total_bytes {
            return Err(UploadError::file_limit(
                ErrorCode::FilesTooLarge,
                format!(
                    "The files are larger than {} together, the most a message may carry.",
                    megabytes(ATTACHMENTS.max_total_bytes)
                ),
            ));
        }
        let wanted = HEAD_BYTES.saturating_sub(head.len()).min(chunk.len());
        head.extend_from_slice(&chunk[..wanted]);
        file.push(chunk).await.map_err(io)?;
    }
    if size == 0 && given_name.is_empty() {
        return Ok(None);
    }
    // Whole, though not yet durable: the store makes it so before the answer, as it moves
    // (files) or copies (PostgreSQL) it.
    let mut written = file.finish().await.map_err(io)?;
    let is_text = written.text.is_text(size);
    let detected = match attachment::sniff(&head) {
        // A zip's type is read from its container, on a thread that may block.
        Sniffed::Zip => {
            let mut file = written.file;
            tokio::task::spawn_blocking(move || attachment::detect(&head, is_text, &mut file))
                .await
                .map_err(|e| UploadError::Io(e.into()))?
        }
        _ => attachment::detect(&head, is_text, &mut written.file),
    };
    let file_type =
        attachment::check(detected, &shown, declared.as_deref()).map_err(|refusal| {
            let shown = if shown.is_empty() { "A file" } else { &shown };
            let message = match refusal {
                Refusal::NotAllowed => format!(
                    "\"{shown}\" is not a kind of file this form takes: {}.",
                    labels()
                ),
                Refusal::Mismatch { detected } => format!(
                    "\"{shown}\" holds a {} file, which its name or declared type does not say.",
                    detected.label
                ),
            };
            UploadError::Refused {
                field: ATTACHMENTS.name.to_owned(),
                error: FieldError {
                    code: ErrorCode::FileType,
                    message,
                },
            }
        })?;
    Ok(Some(Spooled {
        attachment: Attachment {
            name: attachment::display_name(given_name, file_type),
            content_type: file_type.mime.to_owned(),
            size,
            crc32: Some(written.crc32),
            sha256: None,
        },
        path,
    }))
}

/// The kinds of file taken, in words.
fn labels() -> String {
    let labels: Vec<&str> = ATTACHMENTS.types.iter().map(|t| t.label).collect();
    labels.join(", ")
}

fn from_multer(error: multer::Error) -> UploadError {
    match error {
        multer::Error::StreamReadFailed(cause) => match cause.downcast::<FramingError>() {
            Ok(framing) => framing.0,
            Err(cause) => UploadError::Malformed(format!("the body could not be read: {cause}")),
        },
        multer::Error::StreamSizeExceeded { limit } => {
            UploadError::too_large("body", format!("The body is larger than {limit} bytes."))
        }
        other => UploadError::Malformed(other.to_string()),
    }
}

/// An error of the stream beneath multer, carried through it.
#[derive(Debug)]
struct FramingError(UploadError);

impl std::fmt::Display for FramingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for FramingError {}

/// Where [`Framing`] is in the multipart syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Before the first delimiter.
    Preamble,
    /// In a part's headers, which began at this offset of the stream.
    Headers(u64),
    /// In a part's content.
    Content,
}

/// The body stream as multer reads it, watched: it counts the parts, bounds the preamble and
/// each part's headers (which multer would buffer until they end), and yields one chunk per
/// poll, so multer's buffer never takes in more than one chunk at a time.
struct Framing<S> {
    inner: S,
    /// `CRLF--boundary`.
    delimiter: Vec<u8>,
    limits: Limits,
    stage: Stage,
    parts: usize,
    /// The last bytes seen, where a delimiter cut by a chunk's end may begin.
    carry: Vec<u8>,
    /// The stream offset of `carry`'s first byte (the stream is taken to begin with CRLF, so
    /// that a first delimiter at its very start is found like the others).
    carry_offset: u64,
    /// Where the next match may begin, as a stream offset.
    resume: u64,
    /// Whether the last poll yielded a chunk: the next one yields to the scheduler first.
    yielded: bool,
    failed: bool,
}

impl<S> Framing<S> {
    fn new(inner: S, boundary: &str, limits: Limits) -> Self {
        Framing {
            inner,
            delimiter: format!("\r\n--{boundary}").into_bytes(),
            limits,
            stage: Stage::Preamble,
            parts: 0,
            carry: b"\r\n".to_vec(),
            carry_offset: 0,
            resume: 0,
            yielded: false,
            failed: false,
        }
    }

    /// Follows the syntax through `chunk`: first through the seam of the bytes carried from
    /// the chunk before and this one's first few (where a delimiter cut by a chunk's end is
    /// found), then through the chunk itself, which is searched without being copied.
    fn watch(&mut self, chunk: &[u8]) -> Result<(), UploadError> {
        let keep = self.delimiter.len().max(4) - 1;
        let (seam_offset, chunk_offset) = (
            self.carry_offset,
            self.carry_offset + self.carry.len() as u64,
        );
        let mut seam = std::mem::take(&mut self.carry);
        seam.extend_from_slice(&chunk[..keep.min(chunk.len())]);
        self.scan(&seam, seam_offset)?;
        self.scan(chunk, chunk_offset)?;
        if chunk.len() >= keep {
            self.carry = chunk[chunk.len() - keep..].to_vec();
            self.carry_offset = chunk_offset + (chunk.len() - keep) as u64;
        } else {
            // The seam holds the carried bytes and the whole chunk.
            let cut = seam.len().saturating_sub(keep);
            self.carry = seam.split_off(cut);
            self.carry_offset = seam_offset + cut as u64;
        }
        Ok(())
    }

    /// Follows the syntax through `window`, the stream's bytes from `offset`.
    fn scan(&mut self, window: &[u8], offset: u64) -> Result<(), UploadError> {
        let end = offset + window.len() as u64;
        loop {
            let from = usize::try_from(self.resume.saturating_sub(offset)).unwrap_or(usize::MAX);
            let rest = window.get(from..).unwrap_or_default();
            match self.stage {
                Stage::Preamble | Stage::Content => {
                    match memchr::memmem::find(rest, &self.delimiter) {
                        Some(at) => {
                            let after = offset + (from + at + self.delimiter.len()) as u64;
                            self.stage = Stage::Headers(after);
                            self.resume = after;
                        }
                        None => {
                            if self.stage == Stage::Preamble
                                && end > self.limits.max_header_bytes as u64
                            {
                                return Err(UploadError::Malformed(format!(
                                    "no boundary within the first {} bytes",
                                    self.limits.max_header_bytes
                                )));
                            }
                            break;
                        }
                    }
                }
                Stage::Headers(began) => match memchr::memmem::find(rest, b"\r\n\r\n") {
                    Some(at) => {
                        let after = offset + (from + at + 4) as u64;
                        if after - began > self.limits.max_header_bytes as u64 {
                            return Err(self.header_error());
                        }
                        self.parts += 1;
                        if self.parts > self.limits.max_parts {
                            return Err(UploadError::too_large(
                                "parts",
                                format!("The body has more than {} parts.", self.limits.max_parts),
                            ));
                        }
                        self.stage = Stage::Content;
                        self.resume = after;
                    }
                    None => {
                        if end - began > self.limits.max_header_bytes as u64 {
                            return Err(self.header_error());
                        }
                        break;
                    }
                },
            }
        }
        Ok(())
    }

    fn header_error(&self) -> UploadError {
        UploadError::too_large(
            "part_headers",
            format!(
                "A part's headers are longer than {} bytes, or never end.",
                self.limits.max_header_bytes
            ),
        )
    }
}

impl<S, E> Stream for Framing<S>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Item = Result<Bytes, Box<dyn std::error::Error + Send + Sync>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.failed {
            return Poll::Ready(None);
        }
        if self.yielded {
            self.yielded = false;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                if let Err(error) = self.watch(&chunk) {
                    self.failed = true;
                    return Poll::Ready(Some(Err(Box::new(FramingError(error)))));
                }
                self.yielded = true;
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            max_parts: 4,
            max_header_bytes: 64,
            max_field_bytes: 1024,
        }
    }

    fn watch_all(pieces: &[&[u8]]) -> Result<usize, UploadError> {
        let mut framing = Framing::new((), "XyZ", limits());
        for piece in pieces {
            framing.watch(piece)?;
        }
        Ok(framing.parts)
    }

    #[test]
    fn parts_are_counted_across_chunk_ends() {
        let body = b"--XyZ\r\nA: b\r\n\r\none\r\n--XyZ\r\nA: c\r\n\r\ntwo\r\n--XyZ--\r\n";
        assert_eq!(watch_all(&[body]).ok(), Some(2));
        for cut in 1..body.len() {
            let (a, b) = body.split_at(cut);
            assert_eq!(watch_all(&[a, b]).ok(), Some(2), "cut at {cut}");
        }
        // Pieces shorter than a delimiter, in every size up to a few longer.
        for size in 1..12 {
            let pieces: Vec<&[u8]> = body.chunks(size).collect();
            assert_eq!(watch_all(&pieces).ok(), Some(2), "pieces of {size}");
        }
    }

    #[test]
    fn headers_that_never_end_and_too_many_parts_are_refused() {
        let endless = [b"--XyZ\r\nA: ".as_slice(), &[b'x'; 100]];
        assert!(matches!(
            watch_all(&endless),
            Err(UploadError::TooLarge {
                limit: "part_headers",
                ..
            })
        ));
        let many = "--XyZ\r\nA: b\r\n\r\n\r\n".repeat(5);
        assert!(matches!(
            watch_all(&[many.as_bytes()]),
            Err(UploadError::TooLarge { limit: "parts", .. })
        ));
        assert!(matches!(
            watch_all(&[&[b'x'; 100]]),
            Err(UploadError::Malformed(_))
        ));
    }

    #[test]
    fn a_boundary_named_twice_is_refused() {
        assert!(boundary("multipart/form-data; boundary=a").is_ok());
        assert!(boundary("multipart/form-data; boundary=a; boundary=b").is_err());
        assert!(boundary("multipart/form-data").is_err());
    }
}
