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

/// An email being put together as `multipart/mixed`: its body first, then each file as it is
/// read (so only one file's bytes need be held at a time), then the notes.
#[derive(Debug)]
pub struct Mixed {
    out: String,
    boundary: String,
    notes: Vec<String>,
}

impl Mixed {
    /// Starts with `message` (a complete RFC 5322 message as composed), its body becoming the
    /// first part; room is reserved for `file_bytes` of files. `boundary` must not occur in
    /// the message (a fresh UUID does not).
    pub fn start(message: &str, file_bytes: u64, boundary: &str) -> anyhow::Result<Self> {
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
        let encoded = usize::try_from(file_bytes / 57 * 78 + 1024).unwrap_or(0);
        let mut out = String::with_capacity(message.len() + encoded);
        out.push_str(&kept);
        let _ = write!(
            out,
            "Content-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n--{boundary}\r\n{moved}\r\n{body}\r\n"
        );
        Ok(Mixed {
            out,
            boundary: boundary.to_owned(),
            notes: Vec::new(),
        })
    }

    /// Adds `bytes` as the file `attachment`, in base64, named with RFC 2231.
    pub fn attach(&mut self, attachment: &Attachment, bytes: &[u8]) -> anyhow::Result<()> {
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
        for line in bytes.chunks(LINE_BYTES) {
            BASE64.encode_string(line, out);
            out.push_str("\r\n");
        }
        Ok(())
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
        let mut mixed = Mixed::start(message, 5, "B").expect("started");
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
}
