//! The social cards stage: every page's 1200 x 630 PNG for `og:image`, the picture LinkedIn,
//! Slack, Teams and X show with a shared link (none of them shows an SVG). An article's card
//! gives its category, title, author and date; any other page's its title. Each is drawn from
//! one SVG template (`templates/card.svg.j2`) with the fonts built into sitegen
//! (`sitegen/fonts/`) by resvg: no browser, nothing fetched.
//!
//! A card is remembered in the cache by the hash of its SVG, so a rebuild draws only the cards
//! whose words changed; its PNG is published beside the photos with a content-hashed name.
//! What every card shares (the background, the mark, the brand) is drawn once per build; a
//! card draws only its own words, over the rows of the shared layer they cover.
//!
//! A page that names its own picture (`share_image`) gets that instead: the middle of the
//! photo cropped to 1200 x 630, as a JPEG (a PNG when it has transparency), remembered by the
//! hash of the source's bytes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{Context, Result, anyhow};
use minijinja::{Environment, context};
use rayon::prelude::*;
use resvg::{tiny_skia, usvg};
use sitegen_pixels::{Pixels, PngBase};

use crate::cache::{self, Cache, Stored};
use crate::content::articles::Article;
use crate::content::images::{ImageUse, SHARE_SIZE, ShareImage, SocialCard};
use crate::content::{Content, ContentError, ContentErrors, RouteKind};
use crate::images::{Format, Settings, Source};

mod words;

/// The size every service shows in full (`summary_large_image`).
pub const WIDTH: u32 = SHARE_SIZE.0;
/// See [`WIDTH`].
pub const HEIGHT: u32 = SHARE_SIZE.1;

const TEMPLATE: &str = include_str!("../../templates/card.svg.j2");
const FONTS: [&[u8]; 2] = [
    include_bytes!("../../fonts/Inter-Regular.otf"),
    include_bytes!("../../fonts/InterDisplay-Bold.otf"),
];
/// Changes whenever the same SVG would be drawn differently (a font, resvg's version).
const CARDS_VERSION: &str = "sitegen-cards-6 inter-4.0 resvg-0.45 rustybuzz-0.20";
/// Changes whenever the same share picture would be cropped or encoded differently.
const SHARE_VERSION: &str = "sitegen-share-3";

/// The longest title line, in characters of the title's size, and the most lines shown.
const LINE_CHARS: usize = 30;
const MAX_LINES: usize = 3;

/// What one card says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardText {
    /// Above the title: an article's category.
    pub eyebrow: Option<String>,
    /// The page's title.
    pub title: String,
    /// Under the title: an article's author and date.
    pub byline: Option<String>,
}

/// The cards' files, to publish.
#[derive(Debug, Default)]
pub struct Cards {
    /// Output path (`img/card-about.1a2b3c4d5e6f.png`) and the stored file.
    pub files: Vec<(String, Stored)>,
    /// How many were drawn (the rest came from the cache).
    pub drawn: usize,
}

/// Why the stage failed: a page's own picture cannot be decoded (a content error where the
/// content names it), or drawing, encoding or storing failed. The images stage's two kinds.
pub type CardsError = crate::images::ImagesError;

/// The cards a long-running process (`sitegen dev`) has already found or drawn, by the words
/// they show: the next time the same words come, their stored drawing is taken from here
/// without laying out the SVG or asking the cache's memo and store again.
#[derive(Debug, Default)]
pub struct CardMemo {
    drawn: Mutex<HashMap<blake3::Hash, String>>,
}

impl CardMemo {
    /// The key of a card showing `text` under `brand`.
    fn key(brand: &str, text: &CardText) -> blake3::Hash {
        let mut hasher = blake3::Hasher::new();
        hasher.update(CARDS_VERSION.as_bytes());
        for part in [
            Some(brand),
            text.eyebrow.as_deref(),
            Some(text.title.as_str()),
            text.byline.as_deref(),
        ] {
            let part = part.map_or(&[0xff][..], str::as_bytes);
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.finalize()
    }

    fn get(&self, key: &blake3::Hash) -> Option<String> {
        self.drawn.lock().ok()?.get(key).cloned()
    }

    fn insert(&self, key: blake3::Hash, hash: &str) {
        if let Ok(mut drawn) = self.drawn.lock() {
            drawn.insert(key, hash.to_owned());
        }
    }
}

/// Draws the card of every route not yet in the cache and fills `content.cards`.
pub fn process(cache: &Cache, content: &mut Content) -> Result<Cards, CardsError> {
    let brand = content.settings.brand.name.clone();
    let base = Base::default();
    let articles: HashMap<&str, &Article> = content
        .articles
        .iter()
        .map(|a| (a.slug.as_str(), a))
        .collect();
    let jobs: Vec<(String, String, CardText, Option<&ShareImage>)> = content
        .routes
        .iter()
        .map(|route| {
            let name = card_name(&route.path);
            let share = route.share_image.as_ref();
            (
                route.path.clone(),
                name,
                card_text(content, &articles, route),
                share,
            )
        })
        .collect();
    let made = jobs
        .par_iter()
        .map(|(path, name, text, share)| {
            if let Some(share) = share {
                let (card, file, hash, drawn) =
                    share_picture(cache, content, name, &share.src, &share.alt)?;
                return Ok((path.clone(), card, file, hash, drawn));
            }
            // The cache keeps the drawing's hash, not a file name: the same card may belong to a
            // route of another name (an article renamed), and its file is named for the route.
            let (hash, drawn) = find_or_draw(cache, &base, &brand, text)?;
            let file = share_file(name, &hash, Format::Png);
            Ok((path.clone(), drawn_card(&file, text), file, hash, drawn))
        })
        .collect::<Result<Vec<_>, CardsError>>()?;
    let mut cards = Cards::default();
    for (path, card, file, hash, drawn) in made {
        cards.drawn += usize::from(drawn);
        cards.files.push((
            file,
            Stored {
                hash,
                gzip_len: None,
            },
        ));
        content.cards.insert(path, card);
    }
    Ok(cards)
}

/// The card of `brand` showing `text`, found in `cache` by its SVG or drawn over `base` and
/// stored: its stored hash, and whether it was drawn now.
fn find_or_draw(
    cache: &Cache,
    base: &Base,
    brand: &str,
    text: &CardText,
) -> Result<(String, bool)> {
    let svg = svg(brand, text)?;
    let key = cache::hash_hex(&[CARDS_VERSION.as_bytes(), svg.as_bytes()]);
    let store = cache.files();
    let recalled = cache
        .recall(&key)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .filter(|hash| store.contains(hash));
    if let Some(hash) = recalled {
        return Ok((hash, false));
    }
    let stored = store.put(PNG_NAME, &base.draw(brand, text)?)?;
    cache.remember(&key, stored.hash.as_bytes())?;
    Ok((stored.hash, true))
}

/// What the store is told a card is called: the name says only that it is a PNG.
const PNG_NAME: &str = "card.png";

/// One route's card as [`name_for_dev`] names it: the route's path, its card, the card's URL
/// path, and its stored file when known (the card to draw when not).
type NamedForDev = (String, SocialCard, String, Result<String, PendingCard>);

/// The cards as `sitegen dev` names them, and those it has still to draw.
#[derive(Debug, Default)]
pub struct DevCards {
    /// URL path (`img/card-about.1a2b3c4d5e6f.png`) and stored file of each card `memo` knew,
    /// and of each page's own picture.
    pub files: Vec<(String, Stored)>,
    /// The cards to draw, their pages' first.
    pub pending: Vec<PendingCard>,
}

/// A card `sitegen dev` has named and not drawn yet.
#[derive(Debug, Clone)]
pub struct PendingCard {
    /// Its path in the site (`img/card-about.1a2b3c4d5e6f.png`).
    pub file: String,
    key: blake3::Hash,
    brand: String,
    text: CardText,
}

/// Names every route's card as `sitegen dev` serves it, drawing none, and fills
/// `content.cards`. A card's name there follows its words (in a build, its pixels), so the
/// pages name their cards at once and a long archive's cards are drawn after the first page is
/// served ([`PendingCard::draw`]). The cards `memo` knows are listed with their files; a page's
/// own picture is cropped here, as in a build.
pub fn name_for_dev(
    cache: &Cache,
    content: &mut Content,
    memo: &CardMemo,
) -> Result<DevCards, CardsError> {
    let brand = content.settings.brand.name.clone();
    let articles: HashMap<&str, &Article> = content
        .articles
        .iter()
        .map(|a| (a.slug.as_str(), a))
        .collect();
    // Each route's card is named from the route alone: an archive's thousands, on every core.
    let each: Vec<Result<NamedForDev, CardsError>> = content
        .routes
        .par_iter()
        .map(|route| {
            let name = card_name(&route.path);
            if let Some(share) = &route.share_image {
                let (card, file, hash, _) =
                    share_picture(cache, content, &name, &share.src, &share.alt)?;
                return Ok((route.path.clone(), card, file, Ok(hash)));
            }
            let text = card_text(content, &articles, route);
            let key = CardMemo::key(&brand, &text);
            let file = share_file(&name, &key.to_hex(), Format::Png);
            let card = drawn_card(&file, &text);
            let found = match memo.get(&key) {
                Some(hash) => Ok(hash),
                None => Err(PendingCard {
                    file: file.clone(),
                    key,
                    brand: brand.clone(),
                    text,
                }),
            };
            Ok((route.path.clone(), card, file, found))
        })
        .collect();
    let mut named = Vec::with_capacity(each.len());
    let mut cards = DevCards::default();
    for one in each {
        let (path, card, file, found) = one?;
        named.push((path, card));
        match found {
            Ok(hash) => cards.files.push((
                file,
                Stored {
                    hash,
                    gzip_len: None,
                },
            )),
            Err(pending) => cards.pending.push(pending),
        }
    }
    content.cards.extend(named);
    Ok(cards)
}

impl PendingCard {
    /// Finds the card in `cache` or draws it over `base` (the layer of the card's brand),
    /// tells `memo`, and returns its stored hash.
    pub fn draw(&self, cache: &Cache, base: &CardBase, memo: &CardMemo) -> Result<String> {
        let (hash, _) = find_or_draw(cache, &base.0, &self.brand, &self.text)?;
        memo.insert(self.key, &hash);
        Ok(hash)
    }
}

/// The layer the cards of a brand share, drawn with the first of them (see [`Base`]).
#[derive(Default)]
pub struct CardBase(Base);

impl std::fmt::Debug for CardBase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardBase").finish_non_exhaustive()
    }
}

/// The card drawn from `text`, published as `file`.
fn drawn_card(file: &str, text: &CardText) -> SocialCard {
    SocialCard {
        src: format!("/{file}"),
        mime: Format::Png.mime().to_owned(),
        width: WIDTH,
        height: HEIGHT,
        alt: text.title.clone(),
    }
}

/// The name a route's card is published under: `home` for `/`, else its path with dashes.
fn card_name(path: &str) -> String {
    match path.trim_matches('/') {
        "" => "home".to_owned(),
        path => path.replace('/', "-"),
    }
}

/// The page's own picture `src`, cropped to the card's size and published as the card of the
/// route named `name`: the card, its file, its stored hash and whether it was made now.
fn share_picture(
    cache: &Cache,
    content: &Content,
    name: &str,
    src: &str,
    alt: &str,
) -> Result<(SocialCard, String, String, bool), CardsError> {
    let source = content
        .image_refs
        .iter()
        .find(|r| r.src == src && r.usage == ImageUse::Share)
        .ok_or_else(|| anyhow!("the share picture `{src}` was not checked by the content"))?;
    let bytes = std::fs::read(&source.path)
        .with_context(|| format!("reading {}", source.path.display()))?;
    let settings = Settings::default();
    let key = cache::hash_hex(&[
        SHARE_VERSION.as_bytes(),
        &serde_json::to_vec(&settings).map_err(anyhow::Error::from)?,
        &bytes,
    ]);
    let store = cache.files();
    // The memo holds the format's extension and the store hash, which also names the file.
    let recalled = cache
        .recall(&key)
        .and_then(|memo| String::from_utf8(memo).ok())
        .and_then(|memo| {
            let (ext, hash) = memo.split_once(' ')?;
            Some((ext.to_owned(), hash.to_owned()))
        })
        .filter(|(_, hash)| store.contains(hash));
    let (format, file, hash, made) = match recalled {
        Some((ext, hash)) => {
            let format = if ext == Format::Png.extension() {
                Format::Png
            } else {
                Format::Jpeg
            };
            (format, share_file(name, &hash, format), hash, false)
        }
        None => {
            let decoded = Source::decode(&bytes).map_err(|err| {
                ContentErrors(vec![ContentError {
                    file: source.file.clone(),
                    line: source.line,
                    column: source.column,
                    message: format!("`{src}` cannot be decoded: {err:#}"),
                }])
            })?;
            let format = Format::fallback(decoded.has_alpha);
            let picture = crate::images::encode(&decoded.cover(WIDTH, HEIGHT)?, format, &settings)?;
            let (file, stored) =
                store.put_named(&picture, |hash| share_file(name, hash, format))?;
            let memo = format!("{} {}", format.extension(), stored.hash);
            cache.remember(&key, memo.as_bytes())?;
            (format, file, stored.hash, true)
        }
    };
    let card = SocialCard {
        src: format!("/{file}"),
        mime: format.mime().to_owned(),
        width: WIDTH,
        height: HEIGHT,
        alt: alt.to_owned(),
    };
    Ok((card, file, hash, made))
}

/// The published name of the card or share picture of the route named `name`, hashed `hash`.
fn share_file(name: &str, hash: &str, format: Format) -> String {
    let hash = cache::name_hash(hash);
    format!(
        "{}/card-{name}.{hash}.{}",
        crate::images::DIR,
        format.extension()
    )
}

/// What the card of `route` says; `articles` are the content's, by slug.
fn card_text(
    content: &Content,
    articles: &HashMap<&str, &Article>,
    route: &crate::content::RouteInfo,
) -> CardText {
    if let RouteKind::Article { slug } = &route.kind
        && let Some(article) = articles.get(slug.as_str())
    {
        let category = content
            .services
            .iter()
            .find(|c| c.slug == article.category)
            .map(|c| c.name.to_uppercase());
        let author = content
            .authors
            .get(&article.author)
            .map(|a| a.name.clone())
            .unwrap_or_default();
        return CardText {
            eyebrow: category,
            title: article.title.clone(),
            byline: Some(format!("{author}  ·  {}", article.date_display)),
        };
    }
    let suffix = format!(" | {}", content.settings.brand.name);
    CardText {
        eyebrow: None,
        title: route
            .title
            .strip_suffix(&suffix)
            .unwrap_or(&route.title)
            .to_owned(),
        byline: None,
    }
}

/// The card's SVG.
pub fn svg(brand: &str, text: &CardText) -> Result<String> {
    layer(brand, text, Layer::Whole)
}

/// Which part of a card to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    /// All of it.
    Whole,
    /// What every card shares: the background, the mark and the brand.
    Base,
    /// The card's own words, on a transparent background.
    Words,
}

/// The SVG of `layer` of the card.
fn layer(brand: &str, text: &CardText, layer: Layer) -> Result<String> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    let env = ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.add_template("card.svg.j2", TEMPLATE)
            .expect("the card template is valid: the card tests draw it");
        env
    });
    let lines = wrap(&text.title, LINE_CHARS, MAX_LINES);
    // Shorter titles are drawn larger, and the block sits lower the fewer lines it has.
    let (title_size, line_height) = if lines.len() == 1 { (76, 88) } else { (64, 76) };
    let title_y = if text.byline.is_some() { 300 } else { 340 } - (lines.len() as i64 - 1) * 24;
    let rendered = env.get_template("card.svg.j2")?.render(context! {
        layer => match layer {
            Layer::Whole => "whole",
            Layer::Base => "base",
            Layer::Words => "words",
        },
        width => WIDTH,
        height => HEIGHT,
        brand => escape(brand),
        eyebrow => text.eyebrow.as_deref().map(escape),
        eyebrow_y => title_y - title_size - 14,
        lines => lines.iter().map(|l| escape(l)).collect::<Vec<_>>(),
        title_y,
        title_size,
        line_height,
        byline => text.byline.as_deref().map(escape),
    })?;
    Ok(rendered)
}

/// `text` in lines of at most `width` characters, broken between words; at most `max` lines,
/// the last ending in an ellipsis when the text is longer.
pub fn wrap(text: &str, width: usize, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    if lines.len() > max {
        lines.truncate(max);
        if let Some(last) = lines.last_mut() {
            while last.chars().count() + 1 > width {
                last.pop();
            }
            last.push('…');
        }
    }
    lines
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The fonts, loaded once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTDB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTDB
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            for font in FONTS {
                db.load_font_data(font.to_vec());
            }
            Arc::new(db)
        })
        .clone()
}

/// The PNG of `svg`, drawn whole.
pub fn draw(svg: &str) -> Result<Vec<u8>> {
    let mut pixmap =
        tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or_else(|| anyhow!("allocating the card"))?;
    paint(svg, &mut pixmap)?;
    encode(&pixmap)
}

/// The PNG of the whole of `pixmap`: RGB when it is opaque (a quarter fewer bytes to filter and
/// deflate than RGBA), else RGBA. A card over an opaque base takes [`PngBase`]'s shorter way.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>> {
    let (width, height) = (pixmap.width(), pixmap.height());
    let data = pixmap.data();
    if data.chunks_exact(4).all(|pixel| pixel[3] == u8::MAX) {
        let rgb = sitegen_pixels::rgb_of_rgba(data, width, height)?;
        sitegen_pixels::png(&rgb, width, height, Pixels::Rgb)
    } else {
        // tiny-skia's pixels are premultiplied; PNG's are not.
        let mut rgba = Vec::with_capacity(data.len());
        for pixel in pixmap.pixels() {
            let color = pixel.demultiply();
            rgba.extend_from_slice(&[color.red(), color.green(), color.blue(), color.alpha()]);
        }
        sitegen_pixels::png(&rgba, width, height, Pixels::Rgba)
    }
    .context("encoding the card")
}

/// Draws `svg` over what `pixmap` holds.
fn paint(svg: &str, pixmap: &mut tiny_skia::Pixmap) -> Result<()> {
    resvg::render(
        &tree(svg)?,
        tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(())
}

/// `svg` read, with the cards' fonts.
fn tree(svg: &str) -> Result<usvg::Tree> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).context("reading the card's SVG")
}

/// The layer every card of one brand shares, drawn when the first card is, and again when a
/// card of another brand comes (a `sitegen dev` whose `site.yaml` renamed the brand).
#[derive(Default)]
struct Base(Mutex<Option<(String, Arc<Shared>)>>);

/// The shared layer's pixels, and when it is opaque (as the template's is) the same as RGB,
/// filtered and compressed ahead for the rows of every card its words leave alone.
struct Shared {
    pixmap: tiny_skia::Pixmap,
    png: Option<PngBase>,
}

impl Base {
    /// The PNG of the card of `brand` saying `text`: its words drawn over a copy of the base.
    /// Over an opaque base (the template's), the words are drawn by [`words`], and only the
    /// pixels they change are filtered and compressed again ([`PngBase::png_with_changes`]).
    fn draw(&self, brand: &str, text: &CardText) -> Result<Vec<u8>> {
        let shared = self.shared(brand)?;
        let words = layer(brand, text, Layer::Words)?;
        let Some(png) = &shared.png else {
            let mut pixmap = shared.pixmap.clone();
            paint(&words, &mut pixmap)?;
            return encode(&pixmap);
        };
        let drawn = match words::draw(&words, png.rgb(), WIDTH, HEIGHT)? {
            Some(drawn) => png.png_with_changes(drawn.top, &drawn.rows()),
            None => png.png_with_changes(0, &[]),
        };
        drawn.context("encoding the card")
    }

    /// A copy of the base, and whether it is opaque.
    #[cfg(test)]
    fn canvas(&self, brand: &str) -> Result<(tiny_skia::Pixmap, bool)> {
        let shared = self.shared(brand)?;
        Ok((shared.pixmap.clone(), shared.png.is_some()))
    }

    /// The layer of `brand`. Cards drawn at the same time wait for the first to draw it.
    fn shared(&self, brand: &str) -> Result<Arc<Shared>> {
        let mut layer = self
            .0
            .lock()
            .map_err(|_| anyhow!("a thread panicked drawing the cards' shared layer"))?;
        if let Some((drawn_for, shared)) = layer.as_ref()
            && drawn_for == brand
        {
            return Ok(Arc::clone(shared));
        }
        let shared = Arc::new(Shared::draw(brand).context("drawing the cards' shared layer")?);
        *layer = Some((brand.to_owned(), Arc::clone(&shared)));
        Ok(shared)
    }
}

impl Shared {
    fn draw(brand: &str) -> Result<Self> {
        let mut pixmap =
            tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or_else(|| anyhow!("allocating the card"))?;
        let words = CardText {
            eyebrow: None,
            title: String::new(),
            byline: None,
        };
        paint(&layer(brand, &words, Layer::Base)?, &mut pixmap)?;
        let opaque = pixmap.pixels().iter().all(|pixel| pixel.alpha() == u8::MAX);
        let png = opaque
            .then(|| {
                let rgb = sitegen_pixels::rgb_of_rgba(pixmap.data(), WIDTH, HEIGHT)?;
                PngBase::new(rgb, WIDTH, HEIGHT)
            })
            .transpose()?;
        Ok(Self { pixmap, png })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opaque_drawing_is_encoded_as_rgb_and_a_translucent_one_keeps_its_alpha() {
        let mut pixmap = tiny_skia::Pixmap::new(4, 2).expect("a pixmap");
        pixmap.fill(tiny_skia::Color::from_rgba8(200, 100, 50, 255));
        let opaque = image::load_from_memory(&encode(&pixmap).expect("encoded")).expect("a PNG");
        assert_eq!(opaque.color(), image::ColorType::Rgb8);
        assert_eq!(opaque.to_rgb8().get_pixel(3, 1).0, [200, 100, 50]);

        pixmap.fill(tiny_skia::Color::from_rgba8(200, 100, 50, 128));
        let translucent =
            image::load_from_memory(&encode(&pixmap).expect("encoded")).expect("a PNG");
        assert_eq!(translucent.color(), image::ColorType::Rgba8);
        let [r, g, b, a] = translucent.to_rgba8().get_pixel(0, 0).0;
        assert_eq!(a, 128);
        // Premultiplied and back loses at most one step of each channel.
        for (got, want) in [(r, 200), (g, 100), (b, 50)] {
            assert!(got.abs_diff(want) <= 1, "{got} for {want}");
        }
    }

    /// Whether two drawings of a card are alike, and how far apart they are: the mean
    /// difference of a channel, and the share of pixels with a channel more than a quarter of
    /// its range apart. Glyphs start on quarter pixels in one and blend in eight bits: their
    /// edges differ a little, never their place, size, weight or colour.
    fn alike(a: &[u8], b: &[u8]) -> (bool, String) {
        let pixels = a.len() / 3;
        let total: u64 = a
            .iter()
            .zip(b)
            .map(|(x, y)| u64::from(x.abs_diff(*y)))
            .sum();
        let far = a
            .chunks_exact(3)
            .zip(b.chunks_exact(3))
            .filter(|(x, y)| x.iter().zip(*y).any(|(x, y)| x.abs_diff(*y) > 64))
            .count();
        let (mean, far) = (total as f64 / a.len() as f64, far as f64 / pixels as f64);
        (
            mean < 0.2 && far < 0.001,
            format!("mean {mean:.3}, far {far:.5}"),
        )
    }

    /// The card's pixels as resvg draws its whole SVG, and as [`Base::draw`] draws them.
    fn both_ways(brand: &str, text: &CardText) -> (Vec<u8>, Vec<u8>) {
        let whole = draw(&svg(brand, text).expect("svg")).expect("drawn");
        let layered = Base::default().draw(brand, text).expect("drawn");
        let pixels = |png: &[u8]| {
            let image = image::load_from_memory(png).expect("a PNG");
            assert_eq!(image.color(), image::ColorType::Rgb8);
            assert_eq!((image.width(), image.height()), (WIDTH, HEIGHT));
            image.to_rgb8().into_raw()
        };
        (pixels(&whole), pixels(&layered))
    }

    #[test]
    fn a_card_s_words_are_drawn_where_and_as_resvg_draws_them() {
        let text = CardText {
            eyebrow: Some("DATA & ANALYTICS".into()),
            title: "Dashboards nobody opens, and how to fix them (with Väinö’s AVX tips)".into(),
            byline: Some("Jonas Berg  ·  March 8, 2024".into()),
        };
        let (whole, layered) = both_ways("Nordvale", &text);
        let (same, apart) = alike(&whole, &layered);
        assert!(same, "{apart}");
        // The measure does see a misplaced line: the same card with its title a pixel lower.
        let row = WIDTH as usize * 3;
        let title = 230 * row..300 * row;
        let mut lower = layered.clone();
        lower[title.start + row..title.end + row].copy_from_slice(&layered[title.clone()]);
        let (same, apart) = alike(&whole, &lower);
        assert!(!same, "{apart}");
    }

    #[test]
    fn a_card_of_another_brand_is_drawn_over_that_brand_s_layer() {
        let base = Base::default();
        let (first, _) = base.canvas("Nordvale").expect("the base");
        let (other, _) = base.canvas("Another Brand").expect("the base");
        assert_ne!(first.data(), other.data());
        let (again, _) = base.canvas("Nordvale").expect("the base");
        assert_eq!(first.data(), again.data());
    }

    #[test]
    fn titles_wrap_between_words_and_end_in_an_ellipsis() {
        assert_eq!(wrap("One two three", 7, 3), ["One two", "three"]);
        assert_eq!(wrap("aaa bbb ccc ddd", 3, 2), ["aaa", "bb…"]);
    }

    #[test]
    fn an_article_card_is_a_1200_by_630_png_with_its_words() {
        let text = CardText {
            eyebrow: Some("CLOUD SERVICES".into()),
            title: "Five questions to ask before your next cloud migration".into(),
            byline: Some("Erik Saar  ·  March 21, 2024".into()),
        };
        let svg = svg("Nordvale & Co", &text).expect("svg");
        assert!(svg.contains(">Five questions to ask before<"), "{svg}");
        assert!(svg.contains(">your next cloud migration<"), "{svg}");
        assert!(svg.contains(">Nordvale &amp; Co<"), "{svg}");
        let (whole, layered) = both_ways("Nordvale & Co", &text);
        let (same, apart) = alike(&whole, &layered);
        assert!(same, "{apart}");
        let image = image::RgbImage::from_raw(WIDTH, HEIGHT, layered).expect("the card");
        // The title's white text is drawn: some pixel of its first line is near white.
        let rgb = image;
        let white = (80..900)
            .flat_map(|x| (230..300).map(move |y| (x, y)))
            .any(|(x, y)| rgb.get_pixel(x, y).0.iter().all(|&c| c > 240));
        assert!(white, "no title text drawn");
    }
}
