//! Puts a stored email and its files together as `multipart/mixed`, when it is delivered.
//!
//! The outbox keeps the email as it was composed (headers and the text and HTML bodies) and the
//! files apart, so that a record stays small and the files are read once, at delivery. Here the
//! email's own body becomes the first part and each file follows as a base64 part named with
//! RFC 2231 (`filename*=utf-8''...` for a name beyond ASCII); a file left out (the scanner found
//! it infected) is named in a text part at the end, with why.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use email_encoding::headers::rfc2231;
use email_encoding::headers::writer::EmailWriter;

use crate::attachment::Attachment;

/// Bytes of base64 per line: 57 bytes make the 76 characters RFC 2045 allows.
const LINE_BYTES: usize = 57;

/// Characters of one base64 line with its CRLF.
const LINE_CHARS: u64 = 78;

/// Room for what a part adds besides its content (boundary, headers, an RFC 2231 name).
const PART_OVERHEAD: u64 = 1024;

/// The size [`Mixed`] reserves for an email of `message_len` bytes with `files` files of
/// `file_bytes` bytes in all: what it holds of the message as it is put together (the notes
/// of files left out aside, a line each).
pub fn composed_len(message_len: usize, files: usize, file_bytes: u64) -> u64 {
    message_len as u64
        + file_bytes.div_ceil(LINE_BYTES as u64) * LINE_CHARS
        + PART_OVERHEAD * (files as u64 + 2)
}

/// An email being put together as `multipart/mixed`: its body first, then each file as it is
/// read, a chunk at a time (so a file's bytes are never held whole), then the notes.
#[derive(Debug)]
pub struct Mixed {
    out: String,
    boundary: String,
    notes: Vec<String>,
    /// The bytes of a file's last chunk that did not fill a base64 line.
    pending: Vec<u8>,
}

impl Mixed {
    /// Starts with `message` (a complete RFC 5322 message as composed), its body becoming the
    /// first part; room is reserved for `files` files of `file_bytes` bytes in all. `boundary` must not occur in
    /// the message (a fresh UUID does not).
    pub fn start(
        message: &str,
        files: usize,
        file_bytes: u64,
        boundary: &str,
    ) -> anyhow::Result<Self> {
        let (head, body) = message
            .split_once("\r\n\r\n")
            .ok_or_else(|| anyhow::anyhow!("the stored email has no body"))?;
        // The headers of the body (Content-Type, Content-Transfer-Encoding) move into its part.
        let mut kept = String::with_capacity(head.len());
        let mut moved = String::new();
        let mut moving = false;
        for line in head.split("\r\n") {
            let continued = line.starts_with([' ', '\t']);
            if !continued {
                let name = line
                    .split(':')
                    .next()
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                moving = name == "content-type" || name == "content-transfer-encoding";
            }
            let target = if moving { &mut moved } else { &mut kept };
            target.push_str(line);
            target.push_str("\r\n");
        }
        let room = usize::try_from(composed_len(message.len(), files, file_bytes)).unwrap_or(0);
        let mut out = String::with_capacity(room);
        out.push_str(&kept);
        let _ = write!(
            out,
            "Content-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n--{boundary}\r\n{moved}\r\n{body}\r\n"
        );
        Ok(Mixed {
            out,
            boundary: boundary.to_owned(),
            notes: Vec::new(),
            pending: Vec::with_capacity(LINE_BYTES),
        })
    }

    /// Adds `bytes` as the file `attachment`, in base64, named with RFC 2231.
    #[cfg(test)]
    pub fn attach(&mut self, attachment: &Attachment, bytes: &[u8]) -> anyhow::Result<()> {
        self.begin_file(attachment)?;
        self.push(bytes);
        self.end_file();
        Ok(())
    }

    /// Starts the part of the file `attachment`, named with RFC 2231; its bytes follow with
    /// [`Mixed::push`], then [`Mixed::end_file`].
    pub fn begin_file(&mut self, attachment: &Attachment) -> anyhow::Result<()> {
        let out = &mut self.out;
        let _ = write!(
            out,
            "--{}\r\nContent-Type: {}\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment;",
            self.boundary, attachment.content_type
        );
        {
            let line = "Content-Disposition: attachment;".len();
            let mut writer = EmailWriter::new(out, line, 1, true);
            rfc2231::encode("filename", &attachment.name, &mut writer)
                .map_err(|_| anyhow::anyhow!("encoding a file name"))?;
        }
        out.push_str("\r\n\r\n");
        Ok(())
    }

    /// Adds the next `bytes` of the file begun, in base64 lines (a line's worth at most is
    /// kept back until the next bytes or the end of the file).
    pub fn push(&mut self, mut bytes: &[u8]) {
        if !self.pending.is_empty() {
            let take = (LINE_BYTES - self.pending.len()).min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.pending.len() < LINE_BYTES {
                return;
            }
            line(&mut self.out, &self.pending);
            self.pending.clear();
        }
        let whole = bytes.len() / LINE_BYTES * LINE_BYTES;
        for chunk in bytes[..whole].chunks(LINE_BYTES) {
            line(&mut self.out, chunk);
        }
        self.pending.extend_from_slice(&bytes[whole..]);
    }

    /// Ends the file begun.
    pub fn end_file(&mut self) {
        if !self.pending.is_empty() {
            line(&mut self.out, &self.pending);
            self.pending.clear();
        }
    }

    /// Adds a line to the text part after the files (such as why a file was left out).
    pub fn note(&mut self, line: String) {
        self.notes.push(line);
    }

    /// The whole message.
    pub fn finish(mut self) -> String {
        let boundary = &self.boundary;
        if !self.notes.is_empty() {
            let _ = write!(
                self.out,
                "--{boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            );
            for note in &self.notes {
                self.out.push_str(note);
                self.out.push_str("\r\n");
            }
        }
        let _ = write!(self.out, "--{boundary}--\r\n");
        self.out
    }
}

/// Appends `bytes` (a line's worth at most) to `out` as a base64 line.
fn line(out: &mut String, bytes: &[u8]) {
    BASE64.encode_string(bytes, out);
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_becomes_the_first_part_and_names_are_encoded() {
        let message = "From: a@b.example\r\nContent-Type: multipart/alternative;\r\n boundary=\"X\"\r\nSubject: hi\r\n\r\n--X\r\nbody\r\n--X--\r\n";
        let file = Attachment {
            name: "Angebot für Ümläute.pdf".to_owned(),
            content_type: "application/pdf".to_owned(),
            size: 5,
            crc32: None,
            sha256: None,
        };
        let mut mixed = Mixed::start(message, 1, 5, "B").expect("started");
        mixed.attach(&file, b"%PDF-").expect("attached");
        mixed.note("one note".to_owned());
        let mixed = mixed.finish();
        assert!(mixed.starts_with("From: a@b.example\r\nSubject: hi\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: multipart/alternative;\r\n boundary=\"X\"\r\n\r\n--X\r\n"), "{mixed}");
        assert!(
            // RFC 2231: UTF-8, percent-encoded, in continued segments of short lines.
            mixed.contains("\r\n filename*0*=utf-8''Angebot%20f%C3%BCr%20%C3%9Cml%C3%A4ute.pd;"),
            "{mixed}"
        );
        assert!(mixed.contains("JVBERi0=\r\n--B\r\n"), "{mixed}");
        assert!(mixed.ends_with("one note\r\n--B--\r\n"), "{mixed}");
    }

    #[test]
    fn a_file_pushed_in_uneven_pieces_is_encoded_as_the_whole_and_fits_the_room_reserved() {
        let message = "Subject: hi\r\nContent-Type: text/plain\r\n\r\nbody\r\n";
        let bytes: Vec<u8> = (0..1000_u32).map(|i| (i * 7 % 256) as u8).collect();
        let file = Attachment {
            name: "data.bin".to_owned(),
            content_type: "application/octet-stream".to_owned(),
            size: bytes.len() as u64,
            crc32: None,
            sha256: None,
        };
        let mut whole = Mixed::start(message, 1, 1000, "B").expect("started");
        whole.attach(&file, &bytes).expect("attached");
        let mut pieces = Mixed::start(message, 1, 1000, "B").expect("started");
        pieces.begin_file(&file).expect("begun");
        for piece in [
            &bytes[..1],
            &bytes[1..60],
            &bytes[60..114],
            &bytes[114..999],
            &bytes[999..],
        ] {
            pieces.push(piece);
        }
        pieces.end_file();
        let (whole, pieces) = (whole.finish(), pieces.finish());
        assert_eq!(pieces, whole);
        assert!(pieces.len() as u64 <= composed_len(message.len(), 1, 1000));
        assert!(pieces.lines().all(|l| l.len() <= 78), "{pieces}");
    }
}
