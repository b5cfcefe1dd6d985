//! The JSON of a large field of the model, written again on every save from what the last one
//! wrote: an element equal to the one the last save wrote under its key is copied from its
//! bytes, not serialised again. At 5,000 articles a save changes a handful of the 16,000
//! routes, articles and cards, and serialising all of them was a third of handing the content
//! over to the dev server. Equal means the same 128-bit SipHash: remembering the hash rather
//! than the element kept the archive's elements out of memory twice (50 MB at 5,000
//! articles), and hashing an element costs a fraction of serialising it.

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Range;

use siphasher::sip128::{Hasher128, SipHasher13};

/// One large field's elements as the last save wrote them, by key (a route's path, an
/// article's slug, a card's page), and the field's JSON.
#[derive(Debug)]
pub struct Elements<T> {
    /// Each element's hash, with where [`Elements::json`] has its bytes.
    last: HashMap<String, (u128, Range<usize>)>,
    /// The field's JSON: `[a,b,...]`, or `{"k":a,...}` for an object's entries.
    json: Vec<u8>,
    /// Where each element of `json` is, in order: an array's element, or an object's `"k":a`.
    spans: Vec<Range<usize>>,
    /// The buffer of the save before, written into next: a new one each time cost more in page
    /// faults (the kernel zeroing fresh pages) than the copying.
    spare: Vec<u8>,
    /// Whether the field is an object (its entries written `"key":value`).
    object: bool,
    of: std::marker::PhantomData<fn(T)>,
}

/// An element's hash: with the same (fixed) keys in every process, so equal elements hash
/// equal across saves.
fn hash_of<T: Hash>(element: &T) -> u128 {
    let mut hasher = SipHasher13::new();
    element.hash(&mut hasher);
    hasher.finish128().as_u128()
}

impl<T: Hash + serde::Serialize> Elements<T> {
    /// An array's elements.
    pub fn array() -> Self {
        Self::new(false)
    }

    /// An object's entries.
    pub fn object() -> Self {
        Self::new(true)
    }

    fn new(object: bool) -> Self {
        Self {
            last: HashMap::new(),
            json: Vec::new(),
            spans: Vec::new(),
            spare: Vec::new(),
            object,
            of: std::marker::PhantomData,
        }
    }

    /// Writes the field of `now` (each element with its key, in order), the JSON serde would
    /// write for it, and remembers it for the next save.
    pub fn write(&mut self, now: impl IntoIterator<Item = (String, T)>) -> serde_json::Result<()> {
        let (open, close) = super::parts::brackets(self.object);
        let mut json = std::mem::take(&mut self.spare);
        json.clear();
        json.push(open);
        let mut spans = Vec::with_capacity(self.spans.len());
        let mut last = HashMap::with_capacity(self.last.len());
        for (key, element) in now {
            if !spans.is_empty() {
                json.push(b',');
            }
            let start = json.len();
            let hash = hash_of(&element);
            match self.last.get(&key) {
                Some((was, span)) if *was == hash => {
                    json.extend_from_slice(&self.json[span.clone()]);
                }
                _ => {
                    if self.object {
                        serde_json::to_writer(&mut json, &key)?;
                        json.push(b':');
                    }
                    serde_json::to_writer(&mut json, &element)?;
                }
            }
            spans.push(start..json.len());
            last.insert(key, (hash, start..json.len()));
        }
        json.push(close);
        self.spare = std::mem::replace(&mut self.json, json);
        self.spans = spans;
        self.last = last;
        Ok(())
    }

    /// The field's JSON, as the last [`Elements::write`] wrote it.
    pub fn json(&self) -> &[u8] {
        &self.json
    }

    /// Each element's bytes in [`Elements::json`], in order.
    pub fn elements(&self) -> Vec<&[u8]> {
        self.spans
            .iter()
            .map(|span| &self.json[span.clone()])
            .collect()
    }

    /// Whether the field is an object.
    pub fn is_object(&self) -> bool {
        self.object
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An element whose hash ignores `noise`: what was written for an equal element before is
    /// written again, which the bytes show.
    #[derive(Debug, serde::Serialize)]
    struct Element {
        value: u32,
        noise: u32,
    }

    impl Hash for Element {
        fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
            self.value.hash(state);
        }
    }

    fn keyed(values: &[(u32, u32)]) -> Vec<(String, Element)> {
        values
            .iter()
            .map(|&(value, noise)| (format!("k{value}"), Element { value, noise }))
            .collect()
    }

    #[test]
    fn an_array_is_written_as_serde_writes_it() {
        let mut elements = Elements::array();
        let now = keyed(&[(1, 0), (2, 0), (3, 0)]);
        let expected = serde_json::to_vec(&now.iter().map(|(_, e)| e).collect::<Vec<_>>())
            .expect("serialises");
        elements.write(now).expect("written");
        assert_eq!(elements.json(), expected.as_slice());
        assert_eq!(
            elements.elements(),
            [
                &br#"{"value":1,"noise":0}"#[..],
                br#"{"value":2,"noise":0}"#,
                br#"{"value":3,"noise":0}"#
            ]
        );
    }

    #[test]
    fn an_equal_element_keeps_its_bytes_and_a_changed_one_is_written_again() {
        let mut elements = Elements::array();
        elements.write(keyed(&[(1, 0), (2, 0)])).expect("written");
        // Equal (the noise aside): the bytes of before, noise 0. A new one first, as a new
        // article goes, and one gone.
        elements.write(keyed(&[(9, 7), (1, 5)])).expect("written");
        assert_eq!(
            String::from_utf8_lossy(elements.json()),
            r#"[{"value":9,"noise":7},{"value":1,"noise":0}]"#
        );
        // Gone from the last save, it is written afresh when it comes back.
        elements.write(keyed(&[(2, 3)])).expect("written");
        assert_eq!(
            String::from_utf8_lossy(elements.json()),
            r#"[{"value":2,"noise":3}]"#
        );
    }

    #[test]
    fn an_object_is_written_as_serde_writes_its_map() {
        let mut elements = Elements::object();
        let map: std::collections::BTreeMap<String, u32> =
            [("/a\"b".to_owned(), 1), ("/c".to_owned(), 2)].into();
        elements.write(map.clone()).expect("written");
        assert_eq!(
            elements.json(),
            serde_json::to_vec(&map).expect("serialises").as_slice()
        );
        assert_eq!(elements.elements(), [&br#""/a\"b":1"#[..], br#""/c":2"#]);
        elements
            .write(std::collections::BTreeMap::<String, u32>::new())
            .expect("written");
        assert_eq!(elements.json(), b"{}");
    }
}
