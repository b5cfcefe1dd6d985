//! Puts a stored email and its files together as `multipart/mixed`, when it is delivered.
//!
//! The outbox keeps the email as it was composed (headers and the text and HTML bodies) and the
//! files apart, so that a record stays small and the files are read once, at delivery. Here the
//! email's own body becomes the first part and each file follows as a base64 part named with
//! RFC 2231 (`filename*=utf-8''...` for a name beyond ASCII); a file left out (the scanner found
//! it infected) is replaced by a line saying why.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use email_encoding::headers::rfc2231;
use email_encoding::headers::writer::EmailWriter;

use crate::attachment::Attachment;

/// A file to attach, with its bytes.
#[derive(Debug)]
pub struct Part<'a> {
    /// What it is.
    pub attachment: &'a Attachment,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// Bytes of base64 per line: 57 bytes make the 76 characters RFC 2045 allows.
const LINE_BYTES: usize = 57;

/// `message` (a complete RFC 5322 message as composed) with `parts` attached and `notes` (one
/// line each, such as why a file was left out) in a text part after the body. `boundary` must
/// not occur in the message (a fresh UUID does not).
pub fn attach(
    message: &str,
    parts: &[Part<'_>],
    notes: &[String],
    boundary: &str,
) -> anyhow::Result<String> {
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
    let encoded: usize = parts
        .iter()
        .map(|p| p.bytes.len() * 4 / 3 + p.bytes.len() / 28)
        .sum();
    let mut out = String::with_capacity(message.len() + encoded + 1024);
    out.push_str(&kept);
    let _ = write!(
        out,
        "Content-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n--{boundary}\r\n{moved}\r\n{body}\r\n"
    );
    if !notes.is_empty() {
        let _ = write!(
            out,
            "--{boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        );
        for note in notes {
            out.push_str(note);
            out.push_str("\r\n");
        }
    }
    for part in parts {
        let _ = write!(
            out,
            "--{boundary}\r\nContent-Type: {}\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment;",
            part.attachment.content_type
        );
        {
            let line = "Content-Disposition: attachment;".len();
            let mut writer = EmailWriter::new(&mut out, line, 1, true);
            rfc2231::encode("filename", &part.attachment.name, &mut writer)
                .map_err(|_| anyhow::anyhow!("encoding a file name"))?;
        }
        out.push_str("\r\n\r\n");
        for line in part.bytes.chunks(LINE_BYTES) {
            BASE64.encode_string(line, &mut out);
            out.push_str("\r\n");
        }
    }
    let _ = write!(out, "--{boundary}--\r\n");
    Ok(out)
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
            sha256: String::new(),
        };
        let parts = [Part {
            attachment: &file,
            bytes: b"%PDF-",
        }];
        let mixed = attach(message, &parts, &["one note".to_owned()], "B").expect("attached");
        assert!(mixed.starts_with("From: a@b.example\r\nSubject: hi\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: multipart/alternative;\r\n boundary=\"X\"\r\n\r\n--X\r\n"), "{mixed}");
        assert!(
            // RFC 2231: UTF-8, percent-encoded, in continued segments of short lines.
            mixed.contains("\r\n filename*0*=utf-8''Angebot%20f%C3%BCr%20%C3%9Cml%C3%A4ute.pd;"),
            "{mixed}"
        );
        assert!(mixed.contains("one note\r\n"));
        assert!(mixed.contains("JVBERi0=\r\n--B--\r\n"), "{mixed}");
    }
}
