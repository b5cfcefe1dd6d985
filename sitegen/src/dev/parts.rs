//! The content JSON in parts, for the dev server to parse again only what a save changed.
//!
//! Each field of the model is a part. A large one (the routes, the articles and the cards of an
//! archive, megabytes each) is cut further into pieces of about [`PIECE_ELEMENTS`] elements,
//! each a JSON array (or object) of its own. Where a piece ends is decided by its last element's
//! bytes alone, not by its position: a new article, put first among the articles, changes the
//! piece it joins and no other, and every other piece keeps its bytes and so its file. A piece's
//! file is named for its bytes, so a piece that did not change is neither written again nor
//! parsed again.

use std::collections::BTreeMap;

use serde_json::value::RawValue;

/// A part at least this large is cut into pieces; a smaller one is written whole.
pub const PIECE_MIN_BYTES: usize = 64 * 1024;

/// The average number of elements of a piece: an element ends its piece when the hash of its
/// bytes is a multiple of this.
pub const PIECE_ELEMENTS: u64 = 128;

/// A part as written: whole, or in pieces that the reader joins in order.
#[derive(Debug, PartialEq, Eq)]
pub enum Part<'a> {
    Whole(&'a [u8]),
    /// The JSON of each piece: an array of some of the part's elements, or an object of some
    /// of its entries.
    Pieces(Vec<Vec<u8>>),
}

/// Cuts `value` (one field of the model) as [`Part`] says: an array or an object of at least
/// [`PIECE_MIN_BYTES`] into pieces, anything else whole.
pub fn cut(value: &RawValue) -> serde_json::Result<Part<'_>> {
    let json = value.get();
    if json.len() < PIECE_MIN_BYTES {
        return Ok(Part::Whole(json.as_bytes()));
    }
    if json.starts_with('[') {
        let elements: Vec<&RawValue> = serde_json::from_str(json)?;
        Ok(Part::Pieces(group(
            &elements,
            b'[',
            b']',
            |out, element| {
                let start = out.len();
                out.extend_from_slice(element.get().as_bytes());
                &out[start..]
            },
        )))
    } else if json.starts_with('{') {
        // By key: a JSON object's entries have no order, and the model's maps are written sorted.
        let entries: Vec<(String, &RawValue)> =
            serde_json::from_str::<BTreeMap<String, &RawValue>>(json)?
                .into_iter()
                .collect();
        let mut key = Vec::new();
        Ok(Part::Pieces(group(
            &entries,
            b'{',
            b'}',
            |out, (name, element)| {
                key.clear();
                // A key of the model's JSON is a JSON string again; writing to memory cannot fail.
                let _ = serde_json::to_writer(&mut key, name);
                let start = out.len();
                out.extend_from_slice(&key);
                out.push(b':');
                out.extend_from_slice(element.get().as_bytes());
                // The entry's bytes as they are in the piece: its key and its value.
                &out[start..]
            },
        )))
    } else {
        Ok(Part::Whole(json.as_bytes()))
    }
}

/// [`cut`] of a field whose elements' bytes are known: `json` is the field's JSON (an array, or
/// an object when `object`), and `elements` each element's bytes in it, in order (an object's
/// as `"key":value`). The same part as `cut` of `json`, without reading it again.
pub fn cut_known<'a>(json: &'a [u8], elements: &[&[u8]], object: bool) -> Part<'a> {
    if json.len() < PIECE_MIN_BYTES {
        return Part::Whole(json);
    }
    let (open, close) = brackets(object);
    Part::Pieces(group(elements, open, close, |out, element| {
        let start = out.len();
        out.extend_from_slice(element);
        &out[start..]
    }))
}

/// What opens and closes a JSON object (`object`) or array.
pub fn brackets(object: bool) -> (u8, u8) {
    if object { (b'{', b'}') } else { (b'[', b']') }
}

/// Writes `items` into pieces opened by `open` and closed by `close`, each item by `write`
/// (which hands back the bytes it wrote), a piece ending after an item whose bytes' hash is a
/// multiple of [`PIECE_ELEMENTS`].
fn group<T>(
    items: &[T],
    open: u8,
    close: u8,
    mut write: impl for<'o> FnMut(&'o mut Vec<u8>, &T) -> &'o [u8],
) -> Vec<Vec<u8>> {
    // Fixed, so that the same bytes end a piece on every save; a fast hash, as there is one per
    // element of every large part on every save.
    let hasher = foldhash::fast::FixedState::with_seed(0);
    let mut pieces = Vec::new();
    let mut piece = vec![open];
    for item in items {
        if piece.len() > 1 {
            piece.push(b',');
        }
        let written = write(&mut piece, item);
        if std::hash::BuildHasher::hash_one(&hasher, written).is_multiple_of(PIECE_ELEMENTS) {
            piece.push(close);
            pieces.push(std::mem::replace(&mut piece, vec![open]));
        }
    }
    if piece.len() > 1 || pieces.is_empty() {
        piece.push(close);
        pieces.push(piece);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: &str) -> Box<RawValue> {
        RawValue::from_string(json.to_owned()).expect("valid JSON")
    }

    fn pieces(json: &str) -> Vec<String> {
        match cut(&raw(json)).expect("cuts") {
            Part::Pieces(pieces) => pieces
                .into_iter()
                .map(|p| String::from_utf8(p).expect("UTF-8"))
                .collect(),
            Part::Whole(_) => panic!("written whole"),
        }
    }

    /// A large array of `n` routes-like elements, newest first, each distinct.
    fn routes(names: impl Iterator<Item = usize>) -> String {
        let elements: Vec<String> = names
            .map(|i| format!(r#"{{"path":"/insights/article-{i}","title":"Article {i} | Insights","description":"{}"}}"#, "x".repeat(400)))
            .collect();
        format!("[{}]", elements.join(","))
    }

    #[test]
    fn a_small_part_or_a_scalar_is_written_whole() {
        let small = raw(r#"[1,2,3]"#);
        assert_eq!(cut(&small).expect("cuts"), Part::Whole(b"[1,2,3]"));
        let text = raw(&format!("\"{}\"", "x".repeat(PIECE_MIN_BYTES)));
        assert!(matches!(cut(&text).expect("cuts"), Part::Whole(_)));
    }

    #[test]
    fn the_pieces_of_an_array_join_into_the_same_elements() {
        let json = routes(0..2_000);
        let pieces = pieces(&json);
        assert!(pieces.len() > 4, "{} pieces", pieces.len());
        let whole: Vec<serde_json::Value> = serde_json::from_str(&json).expect("parses");
        let joined: Vec<serde_json::Value> = pieces
            .iter()
            .flat_map(|p| {
                serde_json::from_str::<Vec<serde_json::Value>>(p).expect("a piece parses")
            })
            .collect();
        assert_eq!(joined, whole);
    }

    #[test]
    fn a_new_first_element_changes_one_piece() {
        let before = pieces(&routes(0..2_000));
        // The newest article goes first, as the model orders them.
        let after = pieces(&routes(std::iter::once(5_000).chain(0..2_000)));
        let changed = after.iter().filter(|p| !before.contains(p)).count();
        assert_eq!(changed, 1, "{} of {} pieces changed", changed, after.len());
        assert_eq!(after.len(), before.len());
    }

    #[test]
    fn an_edited_element_changes_at_most_two_pieces() {
        let before = pieces(&routes(0..2_000));
        let json = routes(0..2_000).replace("Article 1234 |", "Article 1234, edited |");
        let after = pieces(&json);
        let changed = after.iter().filter(|p| !before.contains(p)).count();
        assert!((1..=2).contains(&changed), "{changed} pieces changed");
    }

    #[test]
    fn the_pieces_of_an_object_hold_its_entries_keys_escaped() {
        let entries: Vec<String> = (0..2_000)
            .map(|i| {
                format!(
                    r#""/insights/a-\"{i}\"":{{"file":"img/card-{i}.png","alt":"{}"}}"#,
                    "y".repeat(100)
                )
            })
            .collect();
        let json = format!("{{{}}}", entries.join(","));
        let pieces = pieces(&json);
        assert!(pieces.len() > 4, "{} pieces", pieces.len());
        let whole: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&json).expect("parses");
        let mut joined = serde_json::Map::new();
        for piece in &pieces {
            let map: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(piece).expect("a piece parses");
            joined.extend(map);
        }
        assert_eq!(joined, whole);
    }
}
