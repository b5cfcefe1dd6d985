//! A card's own words, drawn at the cost of blending them. The words layer of the card's
//! template is read as the two elements it uses (`<text>`, `<rect>`), each line is shaped with
//! rustybuzz (as resvg shapes it), and each glyph's coverage is rasterised by tiny-skia once per
//! thread, size and quarter-pixel position, then only blended onto the card. Laying out and
//! filling every outline anew, as resvg does, took several times the whole card's budget.
//!
//! The template stays the one definition of the card's look: resvg draws its shared layer, and
//! the tests compare these words with resvg's drawing of the same SVG.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use anyhow::{Context, Result, anyhow, bail};
use resvg::{tiny_skia, usvg::roxmltree};
use sitegen_pixels::{Changed, Spans};

use super::FONTS;

/// Words drawn over a picture: from the row `top` on, each row's pixels as drawn and the
/// columns the words changed in it.
#[derive(Debug)]
pub struct Drawn {
    pub top: u32,
    /// Where each row is in `drawn`, in rows; [`NOT_DRAWN`] when the words leave it alone.
    slots: Vec<u32>,
    /// The rows drawn on, RGB, of `row` bytes.
    drawn: Vec<u8>,
    row: usize,
    changed: Vec<Spans>,
}

/// The slot of a row the words leave alone.
const NOT_DRAWN: u32 = u32::MAX;

impl Drawn {
    /// The rows, as [`sitegen_pixels::PngBase::png_with_changes`] takes them.
    pub fn rows(&self) -> Vec<Changed<'_>> {
        let row = self.row;
        self.slots
            .iter()
            .zip(&self.changed)
            .map(|(&slot, spans)| Changed {
                pixels: if slot == NOT_DRAWN {
                    &[]
                } else {
                    &self.drawn[slot as usize * row..(slot as usize + 1) * row]
                },
                spans,
            })
            .collect()
    }
}

/// Draws the words layer `svg` over `picture` (opaque RGB, `width` x `height`); `None` when it
/// draws nothing.
pub fn draw(svg: &str, picture: &[u8], width: u32, height: u32) -> Result<Option<Drawn>> {
    let marks = marks(svg)?;
    GLYPHS.with_borrow_mut(|glyphs| {
        let placed = place(&marks, glyphs)?;
        Ok(paint(&placed, glyphs, picture, width, height))
    })
}

/// What the words layer draws.
#[derive(Debug, Clone, PartialEq)]
enum Mark {
    /// A line of text, its start on the baseline at (`x`, `y`).
    Text {
        x: f32,
        y: f32,
        face: usize,
        size: f32,
        letter_spacing: f32,
        color: Color,
        text: String,
    },
    /// A rectangle on whole pixels.
    Rect(Rect),
}

/// A rectangle on whole pixels, filled.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    color: Color,
}

/// A fill: RGB, and its opacity out of 255.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Color {
    rgb: [u8; 3],
    alpha: u8,
}

/// The marks of the words layer `svg`. An element or attribute this reader does not know is
/// an error, not a mark left out: the template may only use what is drawn here as resvg would.
fn marks(svg: &str) -> Result<Vec<Mark>> {
    let document = roxmltree::Document::parse(svg).context("reading the card's words")?;
    let mut marks = Vec::new();
    for node in document
        .root_element()
        .children()
        .filter(|n| n.is_element())
    {
        let attr = |name: &str| node.attribute(name);
        let number = |name: &str| -> Result<Option<f32>> {
            attr(name)
                .map(|value| {
                    value
                        .parse::<f32>()
                        .ok()
                        .filter(|n| n.is_finite())
                        .ok_or_else(|| anyhow!("`{name}=\"{value}\"` is not a number"))
                })
                .transpose()
        };
        let known: &[&str] = match node.tag_name().name() {
            "text" => &[
                "x",
                "y",
                "font-family",
                "font-weight",
                "font-size",
                "letter-spacing",
                "fill",
                "fill-opacity",
            ],
            "rect" => &["x", "y", "width", "height", "fill", "fill-opacity"],
            other => {
                bail!("the card's words use `<{other}>`, which the words' drawer does not draw")
            }
        };
        if let Some(unknown) = node.attributes().find(|a| !known.contains(&a.name())) {
            bail!(
                "the card's words give `<{}>` the attribute `{}`, which the words' drawer does not know",
                node.tag_name().name(),
                unknown.name()
            );
        }
        let color = Color::of(attr("fill"), number("fill-opacity")?)?;
        if node.tag_name().name() == "rect" {
            let whole = |name: &str| -> Result<u32> {
                let value = number(name)?.unwrap_or(0.0);
                if value < 0.0 || value.fract() != 0.0 {
                    bail!("the card's `<rect>` has `{name}` {value}, not a whole pixel");
                }
                Ok(value as u32)
            };
            marks.push(Mark::Rect(Rect {
                x: whole("x")?,
                y: whole("y")?,
                width: whole("width")?,
                height: whole("height")?,
                color,
            }));
            continue;
        }
        if node.children().any(|child| child.is_element()) {
            bail!("the card's `<text>` holds an element: the words' drawer draws plain text");
        }
        let family = attr("font-family").unwrap_or("Inter");
        let weight = attr("font-weight").unwrap_or("400");
        let weight: u16 = weight
            .parse()
            .map_err(|_| anyhow!("`font-weight=\"{weight}\"` is not a number"))?;
        // SVG's default white space: runs of it become one space, none at the ends.
        let text = node
            .text()
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        marks.push(Mark::Text {
            x: number("x")?.unwrap_or(0.0),
            y: number("y")?.unwrap_or(0.0),
            face: face_of(family, weight)?,
            size: number("font-size")?.unwrap_or(16.0),
            letter_spacing: number("letter-spacing")?.unwrap_or(0.0),
            color,
            text,
        });
    }
    Ok(marks)
}

impl Color {
    fn of(fill: Option<&str>, opacity: Option<f32>) -> Result<Self> {
        let fill = fill.unwrap_or("#000000");
        let hex = fill
            .strip_prefix('#')
            .filter(|hex| hex.len() == 6)
            .and_then(|hex| u32::from_str_radix(hex, 16).ok())
            .ok_or_else(|| anyhow!("`fill=\"{fill}\"` is not a colour as #rrggbb"))?;
        let [_, r, g, b] = hex.to_be_bytes();
        Ok(Self {
            rgb: [r, g, b],
            alpha: (opacity.unwrap_or(1.0).clamp(0.0, 1.0) * 255.0).round() as u8,
        })
    }
}

/// A font of [`FONTS`], as shaped and as named.
struct Face {
    shaper: rustybuzz::Face<'static>,
    families: Vec<String>,
    weight: u16,
}

fn faces() -> &'static [Face] {
    static FACES: OnceLock<Vec<Face>> = OnceLock::new();
    FACES.get_or_init(|| {
        FONTS
            .iter()
            .map(|data| {
                let shaper = rustybuzz::Face::from_slice(data, 0)
                    .expect("the built-in fonts parse: the card tests draw them");
                let families = shaper
                    .names()
                    .into_iter()
                    .filter(|name| {
                        name.name_id == rustybuzz::ttf_parser::name_id::FAMILY
                            || name.name_id == rustybuzz::ttf_parser::name_id::TYPOGRAPHIC_FAMILY
                    })
                    .filter_map(|name| name.to_string())
                    .collect();
                let weight = shaper.weight().to_number();
                Face {
                    shaper,
                    families,
                    weight,
                }
            })
            .collect()
    })
}

/// The font of `family` nearest in weight to `weight`.
fn face_of(family: &str, weight: u16) -> Result<usize> {
    faces()
        .iter()
        .enumerate()
        .filter(|(_, face)| face.families.iter().any(|f| f == family))
        .min_by_key(|(_, face)| face.weight.abs_diff(weight))
        .map(|(index, _)| index)
        .ok_or_else(|| anyhow!("the card's words ask for the font `{family}`, not built in"))
}

/// Quarter pixels: where a glyph may start between two pixels.
const PHASES: f32 = 4.0;

/// A glyph's coverage at one size and phase, and where its box sits from the pen.
#[derive(Debug)]
struct Glyph {
    left: i32,
    top: i32,
    width: u32,
    coverage: Vec<u8>,
    /// The columns of each row with any coverage: only those are blended, and only they
    /// change the card.
    inked: Vec<Range<u32>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct GlyphKey {
    face: usize,
    glyph: u16,
    /// The font size's bits.
    size: u32,
    phase: u8,
}

/// What a shaping plan is for: a face, and a line's direction, script and language.
type PlanKey = (
    usize,
    rustybuzz::Direction,
    rustybuzz::Script,
    Option<rustybuzz::Language>,
);

thread_local! {
    /// The glyphs this thread has rasterised: a build's thousands of cards use a few hundred.
    static GLYPHS: RefCell<HashMap<GlyphKey, Glyph>> = RefCell::new(HashMap::new());
    /// The shaping plans this thread has made: making one costs more than shaping a line.
    static PLANS: RefCell<HashMap<PlanKey, rustybuzz::ShapePlan>> = RefCell::new(HashMap::new());
}

/// What to paint: a glyph's coverage or a rectangle's, at a pixel, in a colour.
enum Placed {
    Glyph {
        key: GlyphKey,
        x: i32,
        y: i32,
        color: Color,
    },
    Rect(Rect),
}

/// The marks laid out, their glyphs rasterised into `glyphs` where they were not yet.
fn place(marks: &[Mark], glyphs: &mut HashMap<GlyphKey, Glyph>) -> Result<Vec<Placed>> {
    let mut placed = Vec::new();
    for mark in marks {
        let (x, y, face, size, letter_spacing, color, text) = match mark {
            Mark::Rect(rect) => {
                placed.push(Placed::Rect(*rect));
                continue;
            }
            Mark::Text {
                x,
                y,
                face,
                size,
                letter_spacing,
                color,
                text,
            } => (*x, *y, *face, *size, *letter_spacing, *color, text),
        };
        let shaper = &faces()[face].shaper;
        let scale = size / shaper.units_per_em() as f32;
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        let shaped = PLANS.with_borrow_mut(|plans| {
            let plan = plans
                .entry((face, buffer.direction(), buffer.script(), buffer.language()))
                .or_insert_with(|| {
                    rustybuzz::ShapePlan::new(
                        shaper,
                        buffer.direction(),
                        Some(buffer.script()),
                        buffer.language().as_ref(),
                        &[],
                    )
                });
            rustybuzz::shape_with_plan(shaper, plan, buffer)
        });
        let infos = shaped.glyph_infos();
        let mut pen = x;
        for (i, (info, position)) in infos.iter().zip(shaped.glyph_positions()).enumerate() {
            let at = pen + position.x_offset as f32 * scale;
            let baseline = (y - position.y_offset as f32 * scale).round() as i32;
            let quarters = (at * PHASES).round();
            let key = GlyphKey {
                face,
                glyph: info.glyph_id as u16,
                size: size.to_bits(),
                phase: quarters.rem_euclid(PHASES) as u8,
            };
            if let std::collections::hash_map::Entry::Vacant(entry) = glyphs.entry(key) {
                entry.insert(rasterise(shaper, key, size)?);
            }
            placed.push(Placed::Glyph {
                key,
                x: (quarters / PHASES).floor() as i32,
                y: baseline,
                color,
            });
            pen += position.x_advance as f32 * scale;
            // Letter spacing follows each character, not each glyph of one.
            if infos
                .get(i + 1)
                .is_none_or(|next| next.cluster != info.cluster)
            {
                pen += letter_spacing;
            }
        }
    }
    Ok(placed)
}

/// The coverage of the glyph `key` at `size` pixels, its pen at `key.phase` quarters of a pixel
/// right of a pixel's edge, filled as resvg fills a glyph's outline (non-zero, anti-aliased).
fn rasterise(shaper: &rustybuzz::Face<'static>, key: GlyphKey, size: f32) -> Result<Glyph> {
    let empty = Glyph {
        left: 0,
        top: 0,
        width: 0,
        coverage: Vec::new(),
        inked: Vec::new(),
    };
    let mut outline = Outline(tiny_skia::PathBuilder::new());
    let Some(bounds) =
        shaper.outline_glyph(rustybuzz::ttf_parser::GlyphId(key.glyph), &mut outline)
    else {
        return Ok(empty); // a space
    };
    let Some(path) = outline.0.finish() else {
        return Ok(empty);
    };
    let scale = size / shaper.units_per_em() as f32;
    let phase = f32::from(key.phase) / PHASES;
    // The outline's box in pixels, with one to spare on each side for the anti-aliasing.
    let left = (f32::from(bounds.x_min) * scale + phase).floor() as i32 - 1;
    let right = (f32::from(bounds.x_max) * scale + phase).ceil() as i32 + 1;
    let top = (-f32::from(bounds.y_max) * scale).floor() as i32 - 1;
    let bottom = (-f32::from(bounds.y_min) * scale).ceil() as i32 + 1;
    let (width, height) = ((right - left) as u32, (bottom - top) as u32);
    let mut mask = tiny_skia::Mask::new(width, height)
        .ok_or_else(|| anyhow!("a glyph of {width} x {height} pixels"))?;
    // Font units grow upwards, pixels downwards.
    let transform =
        tiny_skia::Transform::from_row(scale, 0.0, 0.0, -scale, phase - left as f32, -top as f32);
    mask.fill_path(&path, tiny_skia::FillRule::Winding, true, transform);
    let coverage = mask.data().to_vec();
    let inked = coverage
        .chunks_exact(width as usize)
        .map(|row| {
            let first = row.iter().position(|&c| c > 0).unwrap_or(0);
            let end = row.iter().rposition(|&c| c > 0).map_or(0, |last| last + 1);
            first as u32..end as u32
        })
        .collect();
    Ok(Glyph {
        left,
        top,
        width,
        coverage,
        inked,
    })
}

/// A glyph's outline into a tiny-skia path.
struct Outline(tiny_skia::PathBuilder);

impl rustybuzz::ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

/// A mark's pixels: its box, and its coverage with the columns inked in each row (a
/// rectangle's covers it all).
struct Ink<'a> {
    x: i32,
    y: i32,
    width: u32,
    height: u32,
    coverage: Option<(&'a [u8], &'a [Range<u32>])>,
    color: Color,
}

/// `placed` painted over `picture`: the rows they cover and the columns they changed.
fn paint(
    placed: &[Placed],
    glyphs: &HashMap<GlyphKey, Glyph>,
    picture: &[u8],
    width: u32,
    height: u32,
) -> Option<Drawn> {
    // Each mark's box: its left and top, its width and height, and its coverage with the
    // columns inked in each row (a rectangle's is full).
    let boxes = placed.iter().filter_map(|placed| match placed {
        Placed::Glyph { key, x, y, color } => {
            let glyph = &glyphs[key];
            (glyph.width > 0).then(|| Ink {
                x: x + glyph.left,
                y: y + glyph.top,
                width: glyph.width,
                height: glyph.inked.len() as u32,
                coverage: Some((&glyph.coverage, &glyph.inked)),
                color: *color,
            })
        }
        Placed::Rect(rect) => (rect.width > 0 && rect.height > 0).then_some(Ink {
            x: rect.x as i32,
            y: rect.y as i32,
            width: rect.width,
            height: rect.height,
            coverage: None,
            color: rect.color,
        }),
    });
    let boxes: Vec<Ink<'_>> = boxes
        .filter(|b| {
            b.x < width as i32
                && b.y < height as i32
                && b.x + b.width as i32 > 0
                && b.y + b.height as i32 > 0
        })
        .collect();
    let top = boxes.iter().map(|b| b.y.max(0)).min()? as u32;
    let bottom = boxes
        .iter()
        .map(|b| (b.y + b.height as i32).min(height as i32))
        .max()? as u32;
    let row = width as usize * 3;
    // Each row is copied from the picture when it is first drawn on, into the next slot: the
    // rows a card leaves alone (between its title and byline) are not copied at all.
    let mut slots = vec![NOT_DRAWN; (bottom - top) as usize];
    let mut drawn: Vec<u8> = Vec::with_capacity(row * 256);
    let mut changed: Vec<Spans> = vec![Vec::new(); (bottom - top) as usize];
    for ink in boxes {
        for r in 0..ink.height {
            let py = ink.y + r as i32;
            let columns = match ink.coverage {
                Some((_, rows)) => rows[r as usize].clone(),
                None => 0..ink.width,
            };
            let start = (ink.x + columns.start as i32).max(0);
            let end = (ink.x + columns.end as i32).min(width as i32);
            if py < 0 || py >= height as i32 || start >= end {
                continue;
            }
            let (py, line) = (py as usize, (py as u32 - top) as usize);
            if slots[line] == NOT_DRAWN {
                slots[line] = (drawn.len() / row) as u32;
                drawn.extend_from_slice(&picture[py * row..(py + 1) * row]);
            }
            let slot = slots[line] as usize * row;
            let pixels = &mut drawn[slot + start as usize * 3..slot + end as usize * 3];
            let from = r as usize * ink.width as usize + (start - ink.x) as usize;
            let (rgb, alpha) = (ink.color.rgb, ink.color.alpha);
            match ink.coverage {
                Some((coverage, _)) => sitegen_pixels::blend(
                    pixels,
                    &coverage[from..from + (end - start) as usize],
                    rgb,
                    alpha,
                ),
                None => sitegen_pixels::blend_all(pixels, rgb, alpha),
            }
            changed[line].push(start as u32..end as u32);
        }
    }
    for spans in &mut changed {
        merge(spans);
    }
    Some(Drawn {
        top,
        slots,
        drawn,
        row,
        changed,
    })
}

/// Pixels between two changed spans of a row up to which they are joined into one: filtering
/// a few pixels more costs less than going from one span to the next.
const JOIN_GAP: u32 = 16;

/// `spans` sorted, those that overlap or lie within [`JOIN_GAP`] of each other joined.
fn merge(spans: &mut Spans) {
    spans.sort_unstable_by_key(|span| span.start);
    let mut joined: Spans = Vec::with_capacity(spans.len());
    for span in spans.drain(..) {
        match joined.last_mut() {
            Some(last) if span.start <= last.end + JOIN_GAP => last.end = last.end.max(span.end),
            _ => joined.push(span),
        }
    }
    *spans = joined;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_that_overlap_or_lie_close_are_joined() {
        let mut spans: Spans = vec![30..31, 0..3, 3..5, 60..70, 11..20, 10..12];
        merge(&mut spans);
        assert_eq!(spans, [0..31, 60..70]);
    }

    #[test]
    fn the_words_layer_is_read_as_text_and_rects_and_anything_else_is_refused() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg">
            <text x="80" y="190.5" font-family="Inter Display" font-weight="700" font-size="64"
                  letter-spacing="3" fill="#c7d2fe">  Data  &amp;
                  Analytics </text>
            <rect x="80" y="506" width="1040" height="2" fill="#ffffff" fill-opacity="0.2"/>
        </svg>"##;
        let read = marks(svg).expect("read");
        let bold = face_of("Inter Display", 700).expect("a face");
        assert_eq!(
            read,
            [
                Mark::Text {
                    x: 80.0,
                    y: 190.5,
                    face: bold,
                    size: 64.0,
                    letter_spacing: 3.0,
                    color: Color {
                        rgb: [0xc7, 0xd2, 0xfe],
                        alpha: 255
                    },
                    text: "Data & Analytics".into(),
                },
                Mark::Rect(Rect {
                    x: 80,
                    y: 506,
                    width: 1040,
                    height: 2,
                    color: Color {
                        rgb: [255, 255, 255],
                        alpha: 51
                    },
                }),
            ]
        );
        assert_ne!(bold, face_of("Inter", 400).expect("a face"));
        for (svg, says) in [
            (r#"<svg><circle r="2"/></svg>"#, "`<circle>`"),
            (r#"<svg><text transform="x">a</text></svg>"#, "`transform`"),
            (
                r#"<svg><text><tspan>a</tspan></text></svg>"#,
                "holds an element",
            ),
            (
                r#"<svg><rect x="1.5" width="2" height="2"/></svg>"#,
                "not a whole pixel",
            ),
            (
                r#"<svg><rect fill="red" width="2" height="2"/></svg>"#,
                "#rrggbb",
            ),
            (
                r#"<svg><text font-family="Comic">a</text></svg>"#,
                "`Comic`",
            ),
            (
                r#"<svg><text font-size="big">a</text></svg>"#,
                "`font-size=\"big\"`",
            ),
        ] {
            let err = format!("{:#}", marks(svg).expect_err(svg));
            assert!(err.contains(says), "{svg}: {err}");
        }
    }

    #[test]
    fn nothing_drawn_is_none_and_marks_off_the_picture_change_nothing() {
        let picture = vec![7u8; 20 * 10 * 3];
        assert!(
            draw("<svg></svg>", &picture, 20, 10)
                .expect("drawn")
                .is_none()
        );
        let off = r##"<svg><rect x="30" y="2" width="5" height="5" fill="#ffffff"/></svg>"##;
        assert!(draw(off, &picture, 20, 10).expect("drawn").is_none());
        let clipped = r##"<svg><rect x="18" y="8" width="5" height="5" fill="#ffffff"/></svg>"##;
        let drawn = draw(clipped, &picture, 20, 10)
            .expect("drawn")
            .expect("some");
        let rows = drawn.rows();
        assert_eq!((drawn.top, rows.len()), (8, 2));
        assert!(
            rows.iter()
                .all(|r| r.spans.len() == 1 && r.spans[0] == (18..20))
        );
        assert_eq!(&rows[1].pixels[18 * 3..18 * 3 + 3], &[255, 255, 255]);
        assert_eq!(&rows[1].pixels[17 * 3..17 * 3 + 3], &[7, 7, 7]);
    }
}
