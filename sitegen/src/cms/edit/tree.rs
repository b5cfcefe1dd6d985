//! The YAML text as a tree of positioned nodes: where each value, key and list item starts and
//! ends in the bytes of the file, so an edit can replace a value, or add and remove whole lines,
//! and leave every other byte where it was.

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// A value of the document and where its text is.
#[derive(Debug)]
pub(super) struct Node {
    /// The byte where its text starts (a block scalar's `|`, a flow map's `{`, a block map's
    /// first key).
    pub start: usize,
    /// The byte after its last one (comments and line breaks after it excluded).
    pub end: usize,
    /// Whether it is inside a flow collection (`{ a: b }`, `[a, b]`), or is one.
    pub flow: bool,
    /// Whether it is inside a flow collection.
    pub in_flow: bool,
    /// What it is.
    pub kind: Kind,
}

#[derive(Debug)]
pub(super) enum Kind {
    /// A scalar, in its quoting.
    Scalar(TScalarStyle),
    /// `*name`: a value shared with the anchor's place.
    Alias,
    /// A mapping: its entries in the order of the text.
    Map(Vec<Entry>),
    /// A sequence: its items in order.
    Seq(Vec<Item>),
}

/// One `key: value` of a mapping.
#[derive(Debug)]
pub(super) struct Entry {
    /// The key, as read.
    pub key: String,
    /// The byte where the key starts.
    pub key_start: usize,
    /// Its value.
    pub value: Node,
}

/// One item of a sequence.
#[derive(Debug)]
pub(super) struct Item {
    /// The byte of its `-` in a block sequence; the item's start in a flow one.
    pub dash: usize,
    /// The item.
    pub value: Node,
}

/// The positioned tree of `source`'s one document, or `None` when it does not parse.
pub(super) fn parse(source: &str) -> Option<Node> {
    #[derive(Default)]
    struct Events(Vec<(Event, (usize, usize))>);
    impl MarkedEventReceiver for Events {
        fn on_event(&mut self, ev: Event, mark: Marker) {
            self.0.push((ev, (mark.line(), mark.col())));
        }
    }
    let mut events = Events::default();
    Parser::new_from_str(source).load(&mut events, false).ok()?;
    // yaml-rust2 places an event by line and character column (its running index drifts
    // after some block scalars): the edits need bytes.
    let lines: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let byte = |(line, col): (usize, usize)| -> usize {
        let Some(&start) = line.checked_sub(1).and_then(|l| lines.get(l)) else {
            return source.len();
        };
        source[start..]
            .char_indices()
            .nth(col)
            .map_or(source.len(), |(i, _)| start + i)
    };
    let events: Vec<(Event, usize)> = events
        .0
        .into_iter()
        .map(|(ev, at)| (ev, byte(at)))
        .collect();
    let first = events.iter().position(|(ev, _)| {
        matches!(
            ev,
            Event::Scalar(..)
                | Event::MappingStart(..)
                | Event::SequenceStart(..)
                | Event::Alias(..)
        )
    })?;
    let mut builder = Builder {
        source,
        events: &events,
        at: first,
    };
    builder.node(false, None)
}

struct Builder<'a> {
    source: &'a str,
    events: &'a [(Event, usize)],
    at: usize,
}

impl Builder<'_> {
    /// Where the first key of the block mapping whose event is `i` starts.
    fn first_key(&self, i: usize) -> usize {
        self.start_of(i + 1)
    }

    /// Where the text of event `i` starts: a block scalar's at its `|` or `>` (the parser
    /// places it at its first line of text); the text's end after the last event.
    fn start_of(&self, i: usize) -> usize {
        match self.events.get(i) {
            None => self.source.len(),
            Some((Event::Scalar(_, TScalarStyle::Literal | TScalarStyle::Folded, ..), at)) => {
                block_indicator(self.source, *at).unwrap_or(*at)
            }
            Some((_, at)) => *at,
        }
    }

    /// The node whose first event is the next one. `parent` is the column of the key or dash
    /// it belongs to (a block scalar's lines are indented deeper).
    fn node(&mut self, flow: bool, parent: Option<usize>) -> Option<Node> {
        let (event, start) = self.events.get(self.at)?;
        let start = *start;
        self.at += 1;
        let next = self.start_of(self.at);
        match event {
            Event::Scalar(value, style, ..) => {
                // A block scalar's event is at its first line of text: it starts at its `|`.
                let start = match style {
                    TScalarStyle::Literal | TScalarStyle::Folded => {
                        block_indicator(self.source, start)?
                    }
                    _ => start,
                };
                let end = scalar_end(self.source, start, next, *style, value, flow, parent)?;
                Some(Node {
                    start,
                    end,
                    flow,
                    in_flow: flow,
                    kind: Kind::Scalar(*style),
                })
            }
            Event::Alias(..) => {
                let name = self.source[start + 1..]
                    .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
                    .unwrap_or(self.source.len() - start - 1);
                Some(Node {
                    start,
                    end: start + 1 + name,
                    flow,
                    in_flow: flow,
                    kind: Kind::Alias,
                })
            }
            Event::MappingStart(..) => {
                let is_flow = self.source[start..].starts_with('{');
                let mut entries = Vec::new();
                loop {
                    let (event, at) = self.events.get(self.at)?;
                    if matches!(event, Event::MappingEnd) {
                        self.at += 1;
                        let end = match is_flow {
                            true => at + 1,
                            false => entries.last().map_or(start, |e: &Entry| e.value.end),
                        };
                        // A block mapping starts at its first key (its event may start at a
                        // `- ` before it).
                        let start = match is_flow {
                            true => start,
                            false => entries.first().map_or(start, |e| e.key_start),
                        };
                        return Some(Node {
                            start,
                            end,
                            flow: flow || is_flow,
                            in_flow: flow,
                            kind: Kind::Map(entries),
                        });
                    }
                    let Event::Scalar(key, ..) = event else {
                        return None;
                    };
                    let key_start = *at;
                    self.at += 1;
                    let column = column(self.source, key_start);
                    let value = self.node(flow || is_flow, Some(column))?;
                    entries.push(Entry {
                        key: key.clone(),
                        key_start,
                        value,
                    });
                }
            }
            Event::SequenceStart(..) => {
                let is_flow = self.source[start..].starts_with('[');
                let mut items = Vec::new();
                loop {
                    let (event, at) = self.events.get(self.at)?;
                    if matches!(event, Event::SequenceEnd) {
                        self.at += 1;
                        let end = match is_flow {
                            true => at + 1,
                            false => items.last().map_or(start, |i: &Item| i.value.end),
                        };
                        let start = match is_flow {
                            true => start,
                            false => items.first().map_or(start, |i| i.dash),
                        };
                        return Some(Node {
                            start,
                            end,
                            flow: flow || is_flow,
                            in_flow: flow,
                            kind: Kind::Seq(items),
                        });
                    }
                    // The item's dash is the last before its text; a block scalar's text
                    // starts at its indicator, a block mapping's at its first key.
                    let dash = match is_flow {
                        true => *at,
                        false => {
                            let text = match event {
                                Event::MappingStart(..) => self.first_key(self.at),
                                _ => self.start_of(self.at),
                            };
                            self.source[..text].rfind('-')?
                        }
                    };
                    let value = self.node(flow || is_flow, Some(column(self.source, dash)))?;
                    items.push(Item { dash, value });
                }
            }
            _ => None,
        }
    }
}

/// The field of `source` at 1-based `line` and `column` (as errors place them), named as errors
/// name fields (`hero.actions[1].href`): the deepest value or key there, else the deepest
/// whose lines hold the line.
pub(super) fn field_at(source: &str, line: usize, column: usize) -> Option<String> {
    let root = parse(source)?;
    let start = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let at = (start + column.saturating_sub(1)).min(source.len());
    let line_end = next_line(source, start);
    let mut path = String::new();
    let mut node = &root;
    loop {
        // A child that holds the byte itself, else one on the line.
        let within = |from: usize, to: usize| from <= at && at <= to;
        let on_line = |from: usize, to: usize| from < line_end && start <= to;
        let next = match &node.kind {
            Kind::Map(entries) => entries
                .iter()
                .find(|e| within(e.key_start, e.value.end))
                .or_else(|| entries.iter().find(|e| on_line(e.key_start, e.value.end)))
                .map(|e| (join_key(&path, &e.key), &e.value)),
            Kind::Seq(items) => items
                .iter()
                .enumerate()
                .find(|(_, i)| within(i.dash, i.value.end))
                .or_else(|| {
                    items
                        .iter()
                        .enumerate()
                        .find(|(_, i)| on_line(i.dash, i.value.end))
                })
                .map(|(n, i)| (format!("{path}[{n}]"), &i.value)),
            _ => None,
        };
        match next {
            Some((deeper, child)) => {
                path = deeper;
                node = child;
            }
            None => return (!path.is_empty()).then_some(path),
        }
    }
}

fn join_key(path: &str, key: &str) -> String {
    match path.is_empty() {
        true => key.to_owned(),
        false => format!("{path}.{key}"),
    }
}

/// The column of byte `at`: its distance from the start of its line.
pub(super) fn column(source: &str, at: usize) -> usize {
    at - line_start(source, at)
}

/// The byte where the line holding `at` starts.
pub(super) fn line_start(source: &str, at: usize) -> usize {
    source[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The byte after the line break ending the line that holds `at` (the text's end on its last
/// line).
pub(super) fn next_line(source: &str, at: usize) -> usize {
    source[at..].find('\n').map_or(source.len(), |i| at + i + 1)
}

/// The `|` or `>` of the block scalar whose text starts at `text`: the last one before it,
/// followed by nothing but its indicators and a comment.
fn block_indicator(source: &str, text: usize) -> Option<usize> {
    let mut before = &source[..text];
    loop {
        let at = before.rfind(['|', '>'])?;
        let rest = source[at + 1..].split('\n').next().unwrap_or_default();
        let rest = rest.trim_start_matches(|c: char| c == '-' || c == '+' || c.is_ascii_digit());
        if rest.trim().is_empty() || rest.trim_start().starts_with('#') {
            return Some(at);
        }
        before = &before[..at];
    }
}

/// Where the scalar starting at `start` ends; `next` is where the next event starts.
fn scalar_end(
    source: &str,
    start: usize,
    next: usize,
    style: TScalarStyle,
    value: &str,
    flow: bool,
    parent: Option<usize>,
) -> Option<usize> {
    let rest = &source[start..];
    match style {
        TScalarStyle::SingleQuoted => {
            let mut chars = rest.char_indices().skip(1).peekable();
            loop {
                let (i, c) = chars.next()?;
                if c == '\'' {
                    if chars.peek().is_some_and(|(_, c)| *c == '\'') {
                        chars.next();
                    } else {
                        return Some(start + i + 1);
                    }
                }
            }
        }
        TScalarStyle::DoubleQuoted => {
            let mut chars = rest.char_indices().skip(1);
            loop {
                let (i, c) = chars.next()?;
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => return Some(start + i + 1),
                    _ => {}
                }
            }
        }
        TScalarStyle::Literal | TScalarStyle::Folded => {
            // Its lines are those after the indicator's that are blank or indented deeper
            // than its key or dash.
            let parent = parent.map_or(0, |c| c + 1);
            let mut end = next_line(source, start).min(source.len());
            let mut last = source[start..end].trim_end_matches('\n').len() + start;
            while end < source.len() {
                let line_end = next_line(source, end);
                let line = source[end..line_end].trim_end_matches('\n');
                let indent = line.len() - line.trim_start_matches(' ').len();
                if !line.trim().is_empty() {
                    if indent < parent {
                        break;
                    }
                    last = end + line.trim_end().len();
                }
                end = line_end;
            }
            Some(last)
        }
        TScalarStyle::Plain if value.is_empty() => Some(start),
        TScalarStyle::Plain if flow => {
            let len = rest
                .find(|c: char| ",]}\n".contains(c))
                .unwrap_or(rest.len());
            let text = &rest[..len];
            let text = text.find(" #").map_or(text, |i| &text[..i]);
            Some(start + text.trim_end().len())
        }
        TScalarStyle::Plain => {
            // Up to the next event, over the lines that continue it: indented deeper than its
            // key or dash, not a comment; without a comment after it.
            let region = &source[start..next.max(start)];
            let mut end = start;
            for (i, line) in region.split_inclusive('\n').enumerate() {
                let offset = line.as_ptr() as usize - source.as_ptr() as usize;
                let text = line.trim_end_matches('\n');
                let indent = text.len() - text.trim_start_matches(' ').len();
                if i > 0 && !text.trim().is_empty() {
                    let shallow = parent.is_some_and(|p| indent <= p);
                    if shallow || text.trim_start().starts_with('#') {
                        break;
                    }
                }
                let text = text.find(" #").map_or(text, |i| &text[..i]).trim_end();
                if !text.trim().is_empty() {
                    end = offset + text.len();
                }
            }
            Some(end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str, node: &Node, out: &mut Vec<String>) {
        out.push(source[node.start..node.end].to_owned());
        match &node.kind {
            Kind::Map(entries) => entries.iter().for_each(|e| texts(source, &e.value, out)),
            Kind::Seq(items) => items.iter().for_each(|i| texts(source, &i.value, out)),
            _ => {}
        }
    }

    #[test]
    fn an_error_s_line_and_column_name_its_field() {
        let source = "meta:\n  title: T\nhero:\n  actions:\n    - label: A\n      href: /x\n    - { label: B, href: /y }\n";
        assert_eq!(field_at(source, 2, 10).as_deref(), Some("meta.title"));
        assert_eq!(
            field_at(source, 6, 13).as_deref(),
            Some("hero.actions[0].href")
        );
        assert_eq!(
            field_at(source, 6, 1).as_deref(),
            Some("hero.actions[0].href")
        );
        assert_eq!(
            field_at(source, 7, 26).as_deref(),
            Some("hero.actions[1].href")
        );
        assert_eq!(field_at(source, 4, 3).as_deref(), Some("hero.actions"));
    }

    #[test]
    fn each_node_spans_its_text_only() {
        let source = "a: plain # c\nb: 'q''s'\nc: |-\n  one\n  two\n\n# after\nd:\n  - x\n  - { k: v, l: \"w\" }\n  - k: v\n    m: long\n      folded\ne: [1, 2]\n";
        let tree = parse(source).expect("parses");
        let mut out = Vec::new();
        texts(source, &tree, &mut out);
        assert_eq!(
            out[1..],
            [
                "plain",
                "'q''s'",
                "|-\n  one\n  two",
                "- x\n  - { k: v, l: \"w\" }\n  - k: v\n    m: long\n      folded",
                "x",
                "{ k: v, l: \"w\" }",
                "v",
                "\"w\"",
                "k: v\n    m: long\n      folded",
                "v",
                "long\n      folded",
                "[1, 2]",
                "1",
                "2",
            ]
        );
    }
}
