//! Finds the line and column of a field in a YAML source, for errors found after parsing
//! (a duplicate slug, a link to no page) that serde cannot place.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// A field path such as `hero.actions[1].href`: keys joined with `.` (see [`join`]), sequence
/// items as `[index]`; the form in which errors name a field.
pub type FieldPathText = String;

/// Positions (1-based line, 1-based column) of every mapping key and sequence item of a document.
#[derive(Debug, Default)]
pub struct Positions {
    by_path: HashMap<FieldPathText, (usize, usize)>,
    /// Where each mapping key is written, every time: a key written twice in one mapping
    /// (which the YAML parser lets pass, keeping the last) has two positions here.
    keys: HashMap<FieldPathText, Vec<(usize, usize)>>,
}

impl Positions {
    /// Indexes `source`. A document that does not parse yields no positions.
    pub fn index(source: &str) -> Self {
        let mut builder = Builder::default();
        let mut parser = Parser::new_from_str(source);
        if parser.load(&mut builder, false).is_err() {
            return Self::default();
        }
        Self {
            by_path: builder.by_path,
            keys: builder.keys,
        }
    }

    /// Where the key `path` is written for the `n`th time (0-based), if it is that often.
    pub fn find_key(&self, path: &str, n: usize) -> Option<(usize, usize)> {
        self.keys.get(path)?.get(n).copied()
    }

    /// Where `path` is written, or the nearest enclosing field that is.
    pub fn find(&self, path: &str) -> Option<(usize, usize)> {
        let mut path = path;
        loop {
            if let Some(pos) = self.by_path.get(path) {
                return Some(*pos);
            }
            let cut = path.rfind(['.', '['])?;
            path = &path[..cut];
        }
    }
}

/// One level of the container stack while walking parser events.
#[derive(Debug)]
enum Frame {
    /// `item` is set for a mapping that is a sequence item: its position is that of its first
    /// key, since the parser marks a block mapping's start after that key.
    Map {
        path: String,
        key: Option<String>,
        item: bool,
    },
    Seq {
        path: String,
        index: usize,
    },
}

#[derive(Debug, Default)]
struct Builder {
    stack: Vec<Frame>,
    by_path: HashMap<FieldPathText, (usize, usize)>,
    keys: HashMap<FieldPathText, Vec<(usize, usize)>>,
}

impl Builder {
    /// The path of the node about to start, and whether it is a mapping key.
    fn next_node(&mut self) -> (String, bool) {
        match self.stack.last_mut() {
            None => (String::new(), false),
            Some(Frame::Map { key: None, .. }) => (String::new(), true),
            Some(Frame::Map {
                path,
                key: Some(key),
                ..
            }) => {
                let child = join(path, key);
                (child, false)
            }
            Some(Frame::Seq { path, index }) => {
                let child = format!("{path}[{index}]");
                (child, false)
            }
        }
    }

    /// Called once a value node is complete: advances the enclosing container.
    fn finish_value(&mut self) {
        match self.stack.last_mut() {
            Some(Frame::Map { key, .. }) => *key = None,
            Some(Frame::Seq { index, .. }) => *index += 1,
            None => {}
        }
    }

    fn record(&mut self, path: String, mark: Marker) {
        self.by_path
            .entry(path)
            .or_insert((mark.line(), mark.col() + 1));
    }
}

/// The path of field `key` inside the field at `path` (the document itself when `path` is empty).
pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::Scalar(value, ..) => {
                let (path, is_key) = self.next_node();
                if is_key {
                    if let Some(Frame::Map { path, key, item }) = self.stack.last_mut() {
                        let full = join(path, &value);
                        let item_path = item.then(|| path.clone());
                        *key = Some(value);
                        *item = false;
                        if let Some(item_path) = item_path {
                            self.record(item_path, mark);
                        }
                        self.keys
                            .entry(full.clone())
                            .or_default()
                            .push((mark.line(), mark.col() + 1));
                        self.record(full, mark);
                    }
                } else {
                    if matches!(self.stack.last(), Some(Frame::Seq { .. })) {
                        self.record(path, mark);
                    }
                    self.finish_value();
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let (path, _) = self.next_node();
                let in_seq = matches!(self.stack.last(), Some(Frame::Seq { .. }));
                let is_map = matches!(ev, Event::MappingStart(..));
                if in_seq && !is_map {
                    self.record(path.clone(), mark);
                }
                self.stack.push(if is_map {
                    Frame::Map {
                        path,
                        key: None,
                        item: in_seq,
                    }
                } else {
                    Frame::Seq { path, index: 0 }
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
                self.finish_value();
            }
            Event::Alias(_) => self.finish_value(),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\
meta:
  title: Home
hero:
  title: Hello
  actions:
    - label: Go
      href: /nowhere
    - label: Two
      href: /two
";

    #[test]
    fn finds_keys_and_sequence_items() {
        let pos = Positions::index(DOC);
        assert_eq!(pos.find("meta.title"), Some((2, 3)));
        assert_eq!(pos.find("hero.actions[0].href"), Some((7, 7)));
        assert_eq!(pos.find("hero.actions[1]"), Some((8, 7)));
    }

    #[test]
    fn a_key_written_twice_has_both_positions() {
        let pos = Positions::index("/a: /b\n/c: /d\n/a: /e\n");
        assert_eq!(pos.find_key("/a", 0), Some((1, 1)));
        assert_eq!(pos.find_key("/a", 1), Some((3, 1)));
        assert_eq!(pos.find_key("/a", 2), None);
    }

    #[test]
    fn falls_back_to_the_nearest_written_parent() {
        let pos = Positions::index(DOC);
        assert_eq!(pos.find("hero.actions[1].style"), Some((8, 7)));
        assert_eq!(pos.find("nothing.here"), None);
    }
}
