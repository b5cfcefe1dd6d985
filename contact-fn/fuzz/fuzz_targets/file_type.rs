//! The type of an attached file, decided from its bytes as an upload's is: the magic numbers,
//! the plain-text check (read in pieces, as the file arrives), and a zip container's
//! declaration read from the spool file; then the check against the file's name. The input is
//! the file; its first byte also says where the pieces are cut.
#![no_main]

use std::io::{Seek as _, SeekFrom, Write as _};
use std::sync::Mutex;

use contact_fn::attachment::{self, HEAD_BYTES, TextCheck};
use contact_fn::contract::ATTACHMENTS;
use libfuzzer_sys::fuzz_target;

/// The spool file, written again for every input.
static FILE: Mutex<Option<std::fs::File>> = Mutex::new(None);

fuzz_target!(|data: &[u8]| {
    let mut guard = FILE.lock().expect("the file");
    let file = guard.get_or_insert_with(|| tempfile::tempfile().expect("a spool file"));
    file.set_len(0).expect("emptied");
    file.seek(SeekFrom::Start(0)).expect("rewound");
    file.write_all(data).expect("written");

    // Text read in pieces is judged as the whole is, wherever the pieces are cut.
    let step = usize::from(data.first().copied().unwrap_or(1)).max(1);
    let mut pieces = TextCheck::default();
    for piece in data.chunks(step) {
        pieces.update(piece);
    }
    let mut whole = TextCheck::default();
    whole.update(data);
    let size = data.len() as u64;
    assert_eq!(pieces.is_text(size), whole.is_text(size));
    assert_eq!(
        whole.is_text(size),
        !data.is_empty()
            && std::str::from_utf8(data).is_ok_and(|text| !text
                .chars()
                .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{c}')))
    );

    let head = &data[..data.len().min(HEAD_BYTES)];
    let detected = attachment::detect(head, whole.is_text(size), file);
    if let Some(detected) = detected {
        assert!(ATTACHMENTS.types.contains(detected), "{detected:?}");
        // Its own name and type fit it; the name it is sent under keeps its type.
        let name = attachment::display_name("upload", detected);
        assert_eq!(attachment::check(Some(detected), &name, None), Ok(detected));
        assert_eq!(
            attachment::check(Some(detected), &name, Some(detected.mime)),
            Ok(detected)
        );
    }
});
