//! What a file attached to a message is: its type, decided from its bytes alone (never from
//! its name or the type the client declared), and a name that is safe to show and to send.
//!
//! The kinds of file taken and the limits are the form contract's ([`ATTACHMENTS`]). Office
//! Open XML and OpenDocument files are zip containers: their type is read from the
//! container's own declaration (ODF's first entry `mimetype`, stored uncompressed; OOXML's
//! `[Content_Types].xml` and its main part's name in the central directory), and nothing in
//! them is ever decompressed, so a zip bomb costs what its compressed bytes cost.

use std::io::{Read as _, Seek as _, SeekFrom};

use form_contract::{ATTACHMENTS, FileType};
use serde::{Deserialize, Serialize};

/// A file accepted with a message: what is stored beside it, shown in the email and the
/// webhook, and checked again at delivery. The bytes are kept by the store, never here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Attachment {
    /// The safe display name ([`display_name`]).
    pub name: String,
    /// The media type decided from the bytes (one of the contract's).
    pub content_type: String,
    /// Size in bytes.
    pub size: u64,
    /// CRC-32 of the bytes as they were received, to tell that the stored file is still the
    /// same when it is read back; `None` in a message stored before it was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crc32: Option<u32>,
    /// SHA-256 of the bytes, in lower-case hex, for the webhook and the operator. Taken when the
    /// message is first taken for delivery, from the stored file once its CRC-32 matched, so
    /// that a 10 MB upload is answered without 9 ms of hashing; `None` until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

impl Attachment {
    /// The name [`Attachment::crc32`] is stored under: the service's own check, left out of
    /// what the webhook shows.
    pub const CRC32_FIELD: &'static str = "crc32";

    /// Whether `bytes`, read back from the store, are the file received: its size, then its
    /// CRC-32 (or, in a message stored before CRC-32 was, its SHA-256).
    pub fn check(&self, bytes: &[u8]) -> Result<(), &'static str> {
        let mut reading = self.reading();
        reading.update(bytes)?;
        reading.finish()
    }

    /// A check of the file read back in pieces: [`Reading::update`] with each, in order, then
    /// [`Reading::finish`]; the same answers as [`Attachment::check`] of the whole.
    pub fn reading(&self) -> Reading {
        Reading {
            expected: (self.size, self.crc32, self.sha256.clone()),
            size: 0,
            crc32: crc32fast::Hasher::new(),
            sha256: (self.crc32.is_none() && self.sha256.is_some())
                .then(|| ring::digest::Context::new(&ring::digest::SHA256)),
        }
    }
}

/// A file being read back from the store, checked against what was received
/// ([`Attachment::reading`]).
#[derive(Clone)]
pub struct Reading {
    /// The size, CRC-32 and SHA-256 received.
    expected: (u64, Option<u32>, Option<String>),
    size: u64,
    crc32: crc32fast::Hasher,
    /// Only for a file stored before CRC-32 was taken.
    sha256: Option<ring::digest::Context>,
}

impl std::fmt::Debug for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reading").field("size", &self.size).finish()
    }
}

impl Reading {
    /// Takes the next piece; a file already longer than the one received is refused at once,
    /// so a damaged store cannot make delivery read without end.
    pub fn update(&mut self, bytes: &[u8]) -> Result<(), &'static str> {
        self.size += bytes.len() as u64;
        if self.size > self.expected.0 {
            return Err("its size differs");
        }
        self.crc32.update(bytes);
        if let Some(sha256) = &mut self.sha256 {
            sha256.update(bytes);
        }
        Ok(())
    }

    /// Whether everything read is the file received.
    pub fn finish(self) -> Result<(), &'static str> {
        let (size, crc32, sha256) = self.expected;
        if self.size != size {
            return Err("its size differs");
        }
        let same = match (crc32, sha256, self.sha256) {
            (Some(crc32), _, _) => self.crc32.finalize() == crc32,
            (None, Some(sha256), Some(read)) => crate::hex::hex(read.finish().as_ref()) == sha256,
            _ => true,
        };
        if same {
            Ok(())
        } else {
            Err("its checksum differs")
        }
    }
}

/// SHA-256 of `bytes`, in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::hex::hex(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref())
}

/// The leading bytes [`sniff`] needs.
pub const HEAD_BYTES: usize = 16;

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// A type known from its magic number.
    Known(&'static FileType),
    /// A zip container: [`container_type`] reads which kind.
    Zip,
    /// No magic number: plain text if every byte is UTF-8 text ([`TextCheck`]).
    Unknown,
}

fn contract_type(mime: &str) -> &'static FileType {
    // The contract lists every type this module names; a test checks it.
    ATTACHMENTS.by_mime(mime).unwrap_or(&ATTACHMENTS.types[0])
}

/// The type the leading bytes (at least [`HEAD_BYTES`] when the file is that long) announce.
pub fn sniff(head: &[u8]) -> Sniffed {
    if head.starts_with(b"%PDF-") {
        Sniffed::Known(contract_type("application/pdf"))
    } else if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Sniffed::Known(contract_type("image/png"))
    } else if head.starts_with(b"\xff\xd8\xff") {
        Sniffed::Known(contract_type("image/jpeg"))
    } else if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        Sniffed::Known(contract_type("image/webp"))
    } else if head.starts_with(b"PK\x03\x04") {
        Sniffed::Zip
    } else {
        Sniffed::Unknown
    }
}

/// The type of a whole file: the one its leading bytes `head` announce ([`sniff`]); plain
/// text when they announce none and `is_text` ([`TextCheck::is_text`]); for a zip, the one its
/// container declares ([`container_type`], read from `file`, blocking). `None` for a file of
/// no type the contract takes.
pub fn detect(head: &[u8], is_text: bool, file: &mut std::fs::File) -> Option<&'static FileType> {
    match sniff(head) {
        Sniffed::Known(known) => Some(known),
        Sniffed::Unknown => is_text.then(|| ATTACHMENTS.by_mime("text/plain")).flatten(),
        Sniffed::Zip => container_type(file),
    }
}

/// Whether a stream of bytes, given in pieces, is plain text: UTF-8 (a BOM allowed) with no
/// control character but tab, line breaks and form feed.
#[derive(Debug, Default)]
pub struct TextCheck {
    /// The bytes of a character cut by the end of the last piece.
    pending: Vec<u8>,
    failed: bool,
}

impl TextCheck {
    /// Reads the next piece.
    pub fn update(&mut self, mut piece: &[u8]) {
        if self.failed {
            return;
        }
        // First the character the last piece cut, completed from this one's first bytes.
        if let Some(&lead) = self.pending.first() {
            let width: usize = match lead {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            let wanted = width.saturating_sub(self.pending.len()).min(piece.len());
            self.pending.extend_from_slice(&piece[..wanted]);
            piece = &piece[wanted..];
            if self.pending.len() < width {
                return;
            }
            let character = std::mem::take(&mut self.pending);
            if !std::str::from_utf8(&character).is_ok_and(|c| plain(c.as_bytes())) {
                self.failed = true;
                return;
            }
        }
        let valid = match std::str::from_utf8(piece) {
            Ok(_) => piece,
            Err(error) if error.error_len().is_none() => {
                let (valid, rest) = piece.split_at(error.valid_up_to());
                self.pending = rest.to_vec();
                valid
            }
            Err(_) => {
                self.failed = true;
                return;
            }
        };
        if !plain(valid) {
            self.failed = true;
        }
    }

    /// Whether everything read is text (an empty file is not).
    pub fn is_text(&self, size: u64) -> bool {
        !self.failed && self.pending.is_empty() && size > 0
    }
}

/// Whether `text` (valid UTF-8) has no control character (`char::is_control`) but tab, line
/// breaks and form feed. C0 and DEL are single bytes; C1 (U+0080 to U+009F) is 0xC2 followed by
/// 0x80 to 0x9F. The bytes are compared in blocks that are not left early, which the compiler
/// turns into vector instructions: for 10 MB of ASCII text, 2 ms instead of the 15 to 20 of
/// decoding every character (and copying every piece) as this check did before.
fn plain(text: &[u8]) -> bool {
    let control =
        |b: u8| (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != 0x0c) & (b != b'\r') | (b == 0x7f);
    text.chunks(64)
        .all(|block| !block.iter().fold(false, |found, &b| found | control(b)))
        && !memchr::memchr_iter(0xc2, text)
            .any(|at| text.get(at + 1).is_some_and(|b| (0x80..=0x9f).contains(b)))
}

/// Largest central directory read from a zip container; an office document has a few
/// hundred entries at most.
const MAX_CENTRAL_DIRECTORY: u64 = 1024 * 1024;

/// The type a zip container declares, read without decompressing anything: an OpenDocument
/// file by its first entry `mimetype` (stored, as the format requires), an Office Open XML
/// file by `[Content_Types].xml` and its main part (`word/`, `xl/`, `ppt/`). `None` for any
/// other zip, or one whose structure cannot be read.
pub fn container_type(file: &mut std::fs::File) -> Option<&'static FileType> {
    if let Some(odf) = odf_type(file) {
        return Some(odf);
    }
    let names = central_directory_names(file)?;
    if !names.iter().any(|n| n == "[Content_Types].xml") {
        return None;
    }
    let main = [
        (
            "word/document.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        (
            "xl/workbook.xml",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
        (
            "ppt/presentation.xml",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ),
    ];
    main.iter()
        .find(|(part, _)| names.iter().any(|n| n == part))
        .map(|(_, mime)| contract_type(mime))
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// ODF: the first local entry is `mimetype`, stored (method 0), its content the media type.
fn odf_type(file: &mut std::fs::File) -> Option<&'static FileType> {
    let mut header = [0_u8; 30 + 8 + 80];
    file.seek(SeekFrom::Start(0)).ok()?;
    let read = read_up_to(file, &mut header)?;
    let header = &header[..read];
    let method = u16_at(header, 8)?;
    let size = u32_at(header, 18)? as usize;
    let name_len = u16_at(header, 26)? as usize;
    let extra_len = u16_at(header, 28)? as usize;
    if method != 0 || header.get(30..30 + name_len)? != b"mimetype" || size > 80 {
        return None;
    }
    let mut content = vec![0_u8; size];
    file.seek(SeekFrom::Start((30 + name_len + extra_len) as u64))
        .ok()?;
    file.read_exact(&mut content).ok()?;
    let mime = std::str::from_utf8(&content).ok()?;
    let odf = mime.starts_with("application/vnd.oasis.opendocument.");
    odf.then(|| ATTACHMENTS.by_mime(mime)).flatten()
}

fn read_up_to(file: &mut std::fs::File, buffer: &mut [u8]) -> Option<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..]).ok()? {
            0 => break,
            n => filled += n,
        }
    }
    Some(filled)
}

/// The entry names of a zip's central directory, found from its end record (searched in
/// the last 64 KiB + 22 bytes, the most a comment allows).
fn central_directory_names(file: &mut std::fs::File) -> Option<Vec<String>> {
    let length = file.seek(SeekFrom::End(0)).ok()?;
    let tail_length = length.min(65_536 + 22);
    let mut tail = vec![0_u8; tail_length as usize];
    file.seek(SeekFrom::Start(length - tail_length)).ok()?;
    file.read_exact(&mut tail).ok()?;
    let end = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&at| tail[at..].starts_with(b"PK\x05\x06"))?;
    let entries = u16_at(&tail, end + 10)?;
    let size = u64::from(u32_at(&tail, end + 12)?);
    let offset = u64::from(u32_at(&tail, end + 16)?);
    if size > MAX_CENTRAL_DIRECTORY || offset.checked_add(size)? > length {
        return None;
    }
    let mut directory = vec![0_u8; size as usize];
    file.seek(SeekFrom::Start(offset)).ok()?;
    file.read_exact(&mut directory).ok()?;
    let mut names = Vec::with_capacity(usize::from(entries));
    let mut at = 0;
    for _ in 0..entries {
        if !directory.get(at..)?.starts_with(b"PK\x01\x02") {
            return None;
        }
        let name_len = usize::from(u16_at(&directory, at + 28)?);
        let extra_len = usize::from(u16_at(&directory, at + 30)?);
        let comment_len = usize::from(u16_at(&directory, at + 32)?);
        let name = directory.get(at + 46..at + 46 + name_len)?;
        names.push(String::from_utf8_lossy(name).into_owned());
        at += 46 + name_len + extra_len + comment_len;
    }
    Some(names)
}

/// Whether `c` may not appear in a displayed name: control characters, and the invisible
/// characters that reorder or hide text (bidirectional overrides, isolates and marks,
/// zero-width characters), with which `exe.pdf` can be made to read `fdp.exe`.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{061c}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

/// The ending of `name` (lower case, without the dot), when it has one.
pub fn extension(name: &str) -> Option<String> {
    let (stem, ending) = name.rsplit_once('.')?;
    (!stem.is_empty()
        && (1..=8).contains(&ending.len())
        && ending.bytes().all(|b| b.is_ascii_alphanumeric()))
    .then(|| ending.to_ascii_lowercase())
}

/// `given` without what may not be shown: only the last part of a path (either slash), no
/// control or hidden characters, `_` for each `?`, no leading dots or outer spaces, at most
/// [`form_contract::Attachments::max_name_chars`] characters (shortened in the middle, so
/// the ending stays). May be empty.
///
/// A `?` would let a name read as an RFC 2047 encoded-word (`=?utf-8?q?x?=`), which mail
/// readers decode even inside the quoted `filename` parameter the name is sent in (found by
/// the fuzz target `header_names`); and no Windows folder takes it in a file name.
pub fn clean_name(given: &str) -> String {
    let last = given.rsplit(['/', '\\']).next().unwrap_or_default();
    let name = last
        .chars()
        .filter(|c| !is_hidden(*c))
        .map(|c| if c == '?' { '_' } else { c })
        .collect::<String>()
        .trim()
        .trim_start_matches('.')
        .trim()
        .to_owned();
    let max = ATTACHMENTS.max_name_chars;
    if name.chars().count() <= max {
        return name;
    }
    let ending = extension(&name).unwrap_or_default();
    let keep = max.saturating_sub(ending.chars().count() + 2);
    let stem: String = name.chars().take(keep).collect();
    format!("{}\u{2026}.{ending}", stem.trim_end())
}

/// The name a file of `file_type` is shown and sent under: [`clean_name`], with the type's
/// first ending added when it has none, and `attachment` when nothing is left of it.
pub fn display_name(given: &str, file_type: &FileType) -> String {
    let cleaned = clean_name(given);
    let ending = file_type.extensions.first().copied().unwrap_or("bin");
    match extension(&cleaned) {
        Some(_) => cleaned,
        None if cleaned.is_empty() => format!("attachment.{ending}"),
        None => {
            let max = ATTACHMENTS.max_name_chars.saturating_sub(ending.len() + 1);
            let stem: String = cleaned.chars().take(max).collect();
            format!("{stem}.{ending}")
        }
    }
}

/// Why a file's content is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The content is none of the contract's types.
    NotAllowed,
    /// The content is `detected`, but the name or the declared type says otherwise.
    Mismatch {
        /// What the bytes are.
        detected: &'static FileType,
    },
}

/// Checks the type decided from the bytes against the file's name and the type its client
/// declared (`application/octet-stream` or none declares nothing).
pub fn check(
    detected: Option<&'static FileType>,
    name: &str,
    declared: Option<&str>,
) -> Result<&'static FileType, Refusal> {
    let detected = detected.ok_or(Refusal::NotAllowed)?;
    let name_fits =
        extension(name).is_none_or(|ending| detected.extensions.contains(&ending.as_str()));
    let declared = declared
        .map(|d| {
            d.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
        .filter(|d| !d.is_empty() && d != "application/octet-stream");
    let declared_fits =
        declared.is_none_or(|d| d == detected.mime || detected.aliases.contains(&d.as_str()));
    if name_fits && declared_fits {
        Ok(detected)
    } else {
        Err(Refusal::Mismatch { detected })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received(bytes: &[u8]) -> Attachment {
        Attachment {
            name: "brief.pdf".to_owned(),
            content_type: "application/pdf".to_owned(),
            size: bytes.len() as u64,
            crc32: Some(crc32fast::hash(bytes)),
            sha256: None,
        }
    }

    #[test]
    fn a_file_read_in_pieces_is_checked_as_the_whole_and_a_longer_one_is_refused_at_once() {
        let bytes = b"%PDF-1.7 the brief, read back a piece at a time";
        for file in [
            received(bytes),
            Attachment {
                crc32: None,
                sha256: Some(sha256_hex(bytes)),
                ..received(bytes)
            },
        ] {
            let mut reading = file.reading();
            for piece in bytes.chunks(7) {
                reading.update(piece).expect("no longer than received");
            }
            assert_eq!(reading.finish(), Ok(()));
            let mut changed = bytes.to_vec();
            changed[20] ^= 1;
            let mut reading = file.reading();
            reading.update(&changed).expect("the same size");
            assert_eq!(reading.finish(), Err("its checksum differs"));
            let mut reading = file.reading();
            reading.update(bytes).expect("the whole file");
            assert_eq!(reading.update(b"x"), Err("its size differs"));
        }
    }

    #[test]
    fn a_stored_file_is_checked_against_what_was_received() {
        let file = received(b"%PDF-1.7 the brief");
        assert_eq!(file.check(b"%PDF-1.7 the brief"), Ok(()));
        assert_eq!(file.check(b"%PDF-1.7 the brie"), Err("its size differs"));
        assert_eq!(
            file.check(b"%PDF-1.7 the briff"),
            Err("its checksum differs")
        );
    }

    #[test]
    fn a_file_stored_before_crc32_is_checked_against_its_sha256() {
        let mut file = received(b"abc");
        file.crc32 = None;
        file.sha256 =
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".to_owned());
        assert_eq!(file.check(b"abc"), Ok(()));
        assert_eq!(file.check(b"abd"), Err("its checksum differs"));
        assert_eq!(Some(sha256_hex(b"abc")), file.sha256);
    }

    #[test]
    fn a_stored_record_keeps_its_fields_and_reads_one_from_before_crc32() {
        let file = received(b"x");
        let json = serde_json::to_string(&file).expect("serialised");
        assert!(!json.contains("sha256"), "none until delivery: {json}");
        assert_eq!(
            serde_json::from_str::<Attachment>(&json).expect("read back"),
            file
        );
        let before: Attachment = serde_json::from_str(
            r#"{"name":"a.txt","contentType":"text/plain","size":1,"sha256":"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"}"#,
        )
        .expect("a record from before");
        assert_eq!(before.check(b"x"), Ok(()));
    }

    #[test]
    fn every_type_named_here_is_the_contracts() {
        for mime in [
            "application/pdf",
            "image/png",
            "image/jpeg",
            "image/webp",
            "text/plain",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ] {
            assert!(ATTACHMENTS.by_mime(mime).is_some(), "{mime}");
        }
    }

    #[test]
    fn names_lose_paths_controls_and_bidi_overrides_and_stay_short() {
        let pdf = contract_type("application/pdf");
        assert_eq!(display_name("../../etc/passwd.pdf", pdf), "passwd.pdf");
        assert_eq!(display_name("C:\\Users\\a\\brief.pdf", pdf), "brief.pdf");
        assert_eq!(display_name("a\r\nBcc: x@y.z.pdf", pdf), "aBcc: x@y.z.pdf");
        assert_eq!(
            display_name("invoice\u{202e}fdp.exe", pdf),
            "invoicefdp.exe"
        );
        assert_eq!(display_name("..", pdf), "attachment.pdf");
        assert_eq!(display_name("report", pdf), "report.pdf");
        // found by the fuzz target header_names: read back as "x G.pdf"
        assert_eq!(
            display_name("=?utf-8?q?x?= G.pdf", pdf),
            "=_utf-8_q_x_= G.pdf"
        );
        let long = format!("{}.pdf", "x".repeat(300));
        let shown = display_name(&long, pdf);
        assert_eq!(shown.chars().count(), ATTACHMENTS.max_name_chars);
        assert!(shown.ends_with("….pdf"), "{shown}");
    }

    #[test]
    fn text_is_utf8_without_controls_even_when_cut_mid_character() {
        let mut check = TextCheck::default();
        let text = "Grüße\n".as_bytes();
        check.update(&text[..3]);
        check.update(&text[3..]);
        assert!(check.is_text(text.len() as u64));
        let mut binary = TextCheck::default();
        binary.update(b"MZ\x90\x00\x03");
        assert!(!binary.is_text(5));
        // Every cut, in pieces of every size, of characters of two to four bytes.
        let text = "Grüße – 😀 ok\r\n\tç\u{c}\u{feff}".as_bytes();
        for size in 1..=text.len() {
            let mut check = TextCheck::default();
            text.chunks(size).for_each(|piece| check.update(piece));
            assert!(check.is_text(text.len() as u64), "pieces of {size}");
        }
        for refused in [
            "a\u{0}b",
            "a\u{1b}[0m",
            "del\u{7f}",
            "next line\u{85}",
            "c1 \u{9f}",
        ] {
            for size in 1..=refused.len() {
                let mut check = TextCheck::default();
                refused
                    .as_bytes()
                    .chunks(size)
                    .for_each(|piece| check.update(piece));
                assert!(
                    !check.is_text(refused.len() as u64),
                    "{refused:?} in pieces of {size}"
                );
            }
        }
        let mut cut = TextCheck::default();
        cut.update("ü".as_bytes().get(..1).unwrap_or_default());
        assert!(!cut.is_text(1), "a character the file ends within");
        let mut broken = TextCheck::default();
        broken.update(b"\xc3");
        broken.update(b"(");
        assert!(!broken.is_text(2), "a lead byte without its continuation");
    }

    #[test]
    fn a_mismatch_either_way_is_refused() {
        let pdf = Some(contract_type("application/pdf"));
        assert!(check(pdf, "brief.pdf", Some("application/pdf")).is_ok());
        assert!(check(pdf, "brief.pdf", Some("image/png")).is_err());
        assert!(check(pdf, "brief.png", None).is_err());
        assert_eq!(check(None, "setup.pdf", None), Err(Refusal::NotAllowed));
    }
}
