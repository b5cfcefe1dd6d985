//! The images stage on generated pictures: a large JPEG with an EXIF orientation and GPS
//! position, a PNG with transparency, a truncated file and a tiny one, named by the real
//! content. Checks the formats and widths, the orientation, that no metadata is published,
//! the `file:line:col` errors, and that a second build encodes nothing.

use std::path::{Path, PathBuf};

use image::{GenericImageView, ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage};
use sitegen::cache::Cache;
use sitegen::content::{Content, RouteKind};
use sitegen::images::{self, Settings};

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Written in the GPS block of the JPEG's EXIF, so a test can look for it in the outputs.
const GPS_MARK: &[u8; 8] = b"GPSMARK!";

/// A copy of the real content, for editing.
struct Site {
    _dir: tempfile::TempDir,
    content: PathBuf,
}

impl Site {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let content = dir.path().join("content");
        for entry in walkdir::WalkDir::new(Path::new(REPO).join("content")) {
            let entry = entry.expect("walk");
            let rel = entry
                .path()
                .strip_prefix(Path::new(REPO).join("content"))
                .expect("inside");
            let target = content.join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).expect("mkdir");
            } else {
                std::fs::copy(entry.path(), &target).expect("copy");
            }
        }
        std::fs::create_dir_all(content.join("images/team")).expect("mkdir");
        Self { _dir: dir, content }
    }

    /// Replaces the first `from` in the content file `file` with `to`.
    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.content.join(file);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{file} does not contain {from}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    }

    fn write(&self, rel: &str, bytes: &[u8]) {
        std::fs::write(self.content.join(rel), bytes).expect("write picture");
    }

    fn load(&self) -> Result<Content, Vec<String>> {
        Content::load(&self.content, &Path::new(REPO).join("site/public")).map_err(|errors| {
            errors
                .0
                .iter()
                .map(|e| {
                    e.to_string()
                        .replace(&self.content.display().to_string(), "content")
                })
                .collect()
        })
    }
}

/// A JPEG of `width` x `height`, red on the left half and blue on the right.
fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = RgbImage::from_fn(width, height, |x, _| {
        if x < width / 2 {
            Rgb([220, 30, 30])
        } else {
            Rgb([30, 30, 220])
        }
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
        .write_image(
            image.as_raw(),
            width,
            height,
            image::ExtendedColorType::Rgb8,
        )
        .expect("encode jpeg");
    out
}

/// `jpeg` with an EXIF segment spliced in after its start marker: orientation 6 (turn 90
/// degrees clockwise to show) and a GPS block holding [`GPS_MARK`].
fn jpeg_with_exif(width: u32, height: u32) -> Vec<u8> {
    let mut tiff: Vec<u8> = b"MM\0\x2a\0\0\0\x08".to_vec();
    let entry = |tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        let mut e = Vec::new();
        e.extend(tag.to_be_bytes());
        e.extend(kind.to_be_bytes());
        e.extend(count.to_be_bytes());
        e.extend(value);
        e
    };
    // IFD0 at 8: orientation, GPS pointer (to 38); the GPS IFD at 38: latitude ref and a
    // processing method whose 8 bytes follow at 68.
    tiff.extend(2u16.to_be_bytes());
    tiff.extend(entry(0x0112, 3, 1, [0, 6, 0, 0]));
    tiff.extend(entry(0x8825, 4, 1, 38u32.to_be_bytes()));
    tiff.extend(0u32.to_be_bytes());
    tiff.extend(2u16.to_be_bytes());
    tiff.extend(entry(0x0001, 2, 2, *b"N\0\0\0"));
    tiff.extend(entry(0x001b, 7, 8, 68u32.to_be_bytes()));
    tiff.extend(0u32.to_be_bytes());
    assert_eq!(tiff.len(), 68);
    tiff.extend(GPS_MARK);
    let mut segment = vec![0xff, 0xe1];
    segment.extend(
        u16::try_from(2 + 6 + tiff.len())
            .expect("small")
            .to_be_bytes(),
    );
    segment.extend(b"Exif\0\0");
    segment.extend(tiff);
    let plain = jpeg(width, height);
    let mut out = plain[..2].to_vec();
    out.extend(segment);
    out.extend(&plain[2..]);
    out
}

/// A PNG of `width` x `height` whose right half is transparent.
fn png_with_alpha(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_fn(width, height, |x, _| {
        Rgba([20, 120, 60, if x < width / 2 { 255 } else { 0 }])
    });
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(
            image.as_raw(),
            width,
            height,
            image::ExtendedColorType::Rgba8,
        )
        .expect("encode png");
    out
}

/// Leaves the test's own pictures to encode, not the real content's photos.
fn ours(content: &mut Content) {
    content
        .image_refs
        .retain(|r| ["/images/team/lead.jpg", "/images/clinic.png"].contains(&r.src.as_str()));
    assert_eq!(content.image_refs.len(), 2);
}

/// Fast settings: the tests check what is made, not how small.
fn settings() -> Settings {
    Settings {
        avif_speed: 10,
        ..Settings::default()
    }
}

fn widths(srcset: &str) -> Vec<u32> {
    srcset
        .split(", ")
        .map(|s| {
            s.rsplit(' ')
                .next()
                .and_then(|w| w.strip_suffix('w'))
                .and_then(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("bad srcset entry {s}"))
        })
        .collect()
}

#[test]
fn pictures_are_encoded_upright_in_every_format_without_metadata_and_only_once() {
    let site = Site::new();
    site.write("images/team/lead.jpg", &jpeg_with_exif(720, 480));
    site.write("images/clinic.png", &png_with_alpha(600, 400));
    site.edit(
        "pages/about.yaml",
        "/images/about/team/kristjan-tamm.svg",
        "/images/team/lead.jpg",
    );
    site.edit(
        "pages/industries.yaml",
        "/images/industries/healthcare.svg",
        "/images/clinic.png",
    );
    let cache_dir = tempfile::tempdir().expect("tempdir");
    let cache = Cache::open(Some(cache_dir.path())).expect("cache");
    let mut content = site.load().expect("valid content");
    ours(&mut content);
    let first = images::process(&cache, &mut content, &settings()).expect("encoded");
    assert_eq!((first.report.encoded, first.report.reused), (2, 0));

    // The portrait is shown turned (480 x 720), at the portrait ladder up to its width.
    let lead = &content.images["/images/team/lead.jpg"];
    assert_eq!((lead.width, lead.height), (480, 720));
    let types: Vec<&str> = lead.sources.iter().map(|s| s.mime.as_str()).collect();
    assert_eq!(types, ["image/avif", "image/webp"]);
    for source in &lead.sources {
        assert_eq!(widths(&source.srcset), [320, 480]);
    }
    assert_eq!(widths(&lead.srcset), [320, 480]);
    assert!(lead.srcset.contains(".jpg "), "{}", lead.srcset);
    assert!(lead.placeholder.starts_with("data:image/webp;base64,"));
    assert!(lead.placeholder.len() < 1_000, "{}", lead.placeholder.len());

    // The transparent picture falls back to PNG and keeps its alpha; never upscaled.
    let clinic = &content.images["/images/clinic.png"];
    assert_eq!((clinic.width, clinic.height), (600, 400));
    assert_eq!(widths(&clinic.srcset), [480, 600]);
    assert!(clinic.src.ends_with(".png"), "{}", clinic.src);
    assert_eq!(clinic.placeholder, "");

    let store = cache.files();
    let bytes_of = |url: &str| {
        let name = url.trim_start_matches('/');
        let (_, stored) = first
            .files
            .iter()
            .find(|(file, _)| file == name)
            .unwrap_or_else(|| panic!("{name} is not published"));
        std::fs::read(store.path(&stored.hash)).expect("stored file")
    };
    // Every file is named under the pictures' folder with a hash, and carries no metadata.
    assert_eq!(first.files.len(), 2 * 3 + 2 * 3);
    for (file, stored) in &first.files {
        assert!(file.starts_with(&format!("{}/", images::DIR)), "{file}");
        let bytes = std::fs::read(store.path(&stored.hash)).expect("stored file");
        assert!(
            !bytes.windows(4).any(|w| w == b"Exif") && !bytes.windows(8).any(|w| w == GPS_MARK),
            "{file} keeps the source's metadata"
        );
        let magic: &[u8] = match file.rsplit('.').next() {
            Some("avif") => b"ftypavif",
            Some("webp") => b"WEBP",
            Some("jpg") => b"\xff\xd8\xff",
            Some("png") => b"\x89PNG",
            other => panic!("unexpected format {other:?}"),
        };
        assert!(bytes.windows(magic.len()).any(|w| w == magic), "{file}");
    }
    // The orientation is applied: the left (red) half of the source is now the top.
    let smallest =
        image::load_from_memory(&bytes_of(lead.srcset.split(' ').next().expect("first url")))
            .expect("decode the fallback");
    assert_eq!(smallest.dimensions(), (320, 480));
    let top = smallest.get_pixel(160, 60).0;
    let bottom = smallest.get_pixel(160, 420).0;
    assert!(top[0] > 150 && top[2] < 100, "top is {top:?}");
    assert!(bottom[2] > 150 && bottom[0] < 100, "bottom is {bottom:?}");
    let png = image::load_from_memory(&bytes_of(&clinic.src)).expect("decode the png");
    assert_eq!(png.get_pixel(590, 200).0[3], 0);

    // A second build encodes nothing and describes the same pictures.
    let mut again = site.load().expect("valid content");
    ours(&mut again);
    let second = images::process(&cache, &mut again, &settings()).expect("recalled");
    assert_eq!((second.report.encoded, second.report.reused), (0, 2));
    assert_eq!(second.report.encode_ms, 0);
    assert_eq!(again.images, content.images);
}

#[test]
fn bad_pictures_are_reported_where_the_content_names_them() {
    let site = Site::new();
    site.write("images/tiny.jpg", &jpeg(40, 40));
    site.edit(
        "authors.yaml",
        "/images/insights/avatars/maria-tamm.svg",
        "/images/tiny.jpg",
    );
    site.edit(
        "authors.yaml",
        "/images/insights/avatars/jonas-berg.svg",
        "/images/missing.jpg",
    );
    site.edit(
        "pages/industries.yaml",
        "/images/industries/healthcare.svg",
        "/images/notes.png",
    );
    site.write("images/notes.png", b"not a picture at all");
    let errors = site.load().expect_err("bad pictures");
    let dir = site.content.display().to_string();
    assert_eq!(
        errors,
        [
            "content/pages/industries.yaml:35:7: `image` `/images/notes.png` cannot be read as a picture: Format error decoding Png: Invalid PNG signature.".to_owned(),
            format!("content/authors.yaml:11:3: `avatar` `/images/missing.jpg` does not exist: expected the file {dir}/images/missing.jpg").replace(&dir, "content"),
            "content/authors.yaml:6:3: `avatar` `/images/tiny.jpg` is 40 px wide; where it is shown it needs at least 48 px".to_owned(),
        ]
    );
}

#[test]
fn a_truncated_picture_fails_the_images_stage_at_its_field() {
    let site = Site::new();
    let whole = jpeg(1000, 600);
    site.write("images/truncated.jpg", &whole[..whole.len() / 2]);
    site.edit(
        "pages/industries.yaml",
        "/images/industries/financial-services.svg",
        "/images/truncated.jpg",
    );
    let mut content = site.load().expect("its header reads");
    content
        .image_refs
        .retain(|r| r.src == "/images/truncated.jpg");
    let cache_dir = tempfile::tempdir().expect("tempdir");
    let cache = Cache::open(Some(cache_dir.path())).expect("cache");
    let err = images::process(&cache, &mut content, &settings()).expect_err("truncated");
    let message = err
        .to_string()
        .replace(&site.content.display().to_string(), "content");
    assert!(
        message.starts_with(
            "content/pages/industries.yaml:46:7: `/images/truncated.jpg` cannot be decoded: the file ends before the picture does: it is truncated"
        ),
        "{message}"
    );
}

/// The article the body-picture tests write into.
const BODY_ARTICLE: &str = "articles/choosing-between-a-modular-monolith-and-microservices.md";
/// Its body's first line, in the file (line 12).
const BODY_FIRST_LINE: &str = "We are regularly asked to review architectures";

/// A copy of the content with a 900 x 600 `/images/chart.jpg` and `markdown` before the first
/// line of [`BODY_ARTICLE`]'s body.
fn site_with_body(markdown: &str) -> Site {
    let site = Site::new();
    site.write("images/chart.jpg", &jpeg(900, 600));
    site.edit(
        BODY_ARTICLE,
        BODY_FIRST_LINE,
        &format!("{markdown}{BODY_FIRST_LINE}"),
    );
    site
}

#[test]
fn pictures_in_an_article_body_are_encoded_like_its_image() {
    let site = site_with_body(
        "![A chart of lead time falling](/images/chart.jpg)\n\n\
         ![The modules, drawn](/images/insights/modular-monolith.svg)\n\n\
         ![A small key to the chart](/images/key.png)\n\n",
    );
    // Narrower than any rung of the ladder: shown at its own width.
    site.write("images/key.png", &png_with_alpha(200, 120));
    let mut content = site.load().expect("valid content");
    content
        .image_refs
        .retain(|r| ["/images/chart.jpg", "/images/key.png"].contains(&r.src.as_str()));
    assert_eq!(content.image_refs.len(), 2);
    let chart = &content.image_refs[0];
    assert_eq!((chart.line, chart.column), (Some(12), Some(1)));
    let cache_dir = tempfile::tempdir().expect("tempdir");
    let cache = Cache::open(Some(cache_dir.path())).expect("cache");
    images::process(&cache, &mut content, &settings()).expect("encoded");

    let picture = &content.images["/images/chart.jpg"];
    assert_eq!(widths(&picture.srcset), [480, 768, 900]);
    assert_eq!(widths(&content.images["/images/key.png"].srcset), [200]);
    let article = content
        .articles
        .iter()
        .find(|a| BODY_ARTICLE.ends_with(&format!("/{}.md", a.slug)))
        .expect("the article");
    let html = &article.html;
    assert!(!html.contains("<!--sitegen-image-"), "{html}");
    let sizes = sitegen::content::articles::BODY_PICTURE_SIZES;
    let expected = format!(
        "<p><span class=\"body-picture\"><img class=\"body-picture-preview\" src=\"{}\" alt=\"\" aria-hidden=\"true\"><picture>\
         <source type=\"image/avif\" srcset=\"{}\" sizes=\"{sizes}\">\
         <source type=\"image/webp\" srcset=\"{}\" sizes=\"{sizes}\">\
         <img src=\"{}\" srcset=\"{}\" sizes=\"{sizes}\" alt=\"A chart of lead time falling\" width=\"900\" height=\"600\" loading=\"lazy\" decoding=\"async\"></picture></span></p>",
        picture.placeholder,
        picture.sources[0].srcset,
        picture.sources[1].srcset,
        picture.src,
        picture.srcset,
    );
    assert!(html.starts_with(&expected), "{html}");
    // The SVG is published as it is, with the size it is drawn at.
    assert!(
        html.contains(
            "<p><img src=\"/images/insights/modular-monolith.svg\" alt=\"The modules, drawn\" width=\"640\" height=\"360\" loading=\"lazy\" decoding=\"async\"></p>"
        ),
        "{html}"
    );
}

#[test]
fn a_body_picture_without_alt_text_or_file_is_reported_at_its_line() {
    let site =
        site_with_body("Before ![](/images/chart.jpg) and\n![A lost chart](/images/lost.png).\n\n");
    let errors = site.load().expect_err("bad body pictures");
    let dir = site.content.display().to_string();
    assert_eq!(
        errors,
        [
            format!("content/{BODY_ARTICLE}:12:8: image `/images/chart.jpg` has no alternative text: say what it shows between the brackets, `![What it shows](/images/chart.jpg)`"),
            format!("content/{BODY_ARTICLE}:13:1: image `/images/lost.png` does not exist: expected the file {dir}/images/lost.png").replace(&dir, "content"),
        ]
    );
}

#[test]
fn a_content_picture_needs_alt_text_or_an_explicit_decorative_true() {
    let site = Site::new();
    // No alternative text and not said to be decorative: an illustration, a byline portrait.
    site.edit(
        "pages/industries.yaml",
        "      image_alt: Illustration of a patient health dashboard with a heart-rate line and clinical charts.\n",
        "",
    );
    site.edit(
        "authors.yaml",
        "avatar: /images/insights/avatars/maria-tamm.svg\n  decorative: true\n",
        "avatar: /images/insights/avatars/maria-tamm.svg\n",
    );
    // Both: alternative text on a picture said to be decorative.
    site.edit(
        "pages/about.yaml",
        "avatar: /images/about/team/kristjan-tamm.svg\n",
        "avatar: /images/about/team/kristjan-tamm.svg\n      avatar_alt: Kristjan at his desk\n",
    );
    assert_eq!(
        site.load().expect_err("pictures without alt text"),
        [
            "content/pages/about.yaml:136:7: a decorative picture is shown with empty alternative text: remove `avatar_alt` or `decorative: true`",
            "content/pages/industries.yaml:35:7: `image` `/images/industries/healthcare.svg` has no alternative text: add `image_alt` saying what it shows, or `decorative: true` when the words beside it say it all",
            "content/authors.yaml:6:3: `avatar` `/images/insights/avatars/maria-tamm.svg` has no alternative text: add `avatar_alt` saying what it shows, or `decorative: true` when the words beside it say it all",
        ]
    );

    // Said to be decorative, an illustration is shown with empty alternative text.
    let site = Site::new();
    site.edit(
        "pages/industries.yaml",
        "image_alt: Illustration of a patient health dashboard with a heart-rate line and clinical charts.",
        "decorative: true",
    );
    // Its translation has no words of its own for it either.
    site.edit(
        "pages/industries.et.yaml",
        "      image_alt: Illustratsioon patsiendi terviseandmete töölauast südamerütmi joone ja kliiniliste graafikutega.\n",
        "",
    );
    let content = site.load().expect("valid content");
    let healthcare = &content.pages.industries.industries.items[0];
    assert!(healthcare.decorative);
    assert_eq!(healthcare.image_alt, "");
}

#[test]
fn a_page_shares_its_own_picture_cropped_to_1200_by_630() {
    let site = Site::new();
    // Upright the JPEG is 1600 x 2000, red above blue; the PNG is wide and half transparent.
    site.write("images/quay.jpg", &jpeg_with_exif(2000, 1600));
    site.write("images/wide.png", &png_with_alpha(2400, 1000));
    site.edit(
        "pages/about.yaml",
        "meta:\n",
        "meta:\n  share_image: /images/quay.jpg\n  share_image_alt: The team on the quay\n",
    );
    site.edit(
        BODY_ARTICLE,
        "type: article\n",
        "type: article\nshare_image: /images/wide.png\nshare_image_alt: Two modules side by side\n",
    );
    let cache_dir = tempfile::tempdir().expect("tempdir");
    let cache = Cache::open(Some(cache_dir.path())).expect("cache");
    let mut content = site.load().expect("valid content");
    let first = sitegen::cards::process(&cache, &mut content).expect("cards");
    assert_eq!(first.drawn, content.routes.len());

    let about = content.cards["/about"].clone();
    assert!(about.src.starts_with("/img/card-about."), "{}", about.src);
    assert!(about.src.ends_with(".jpg"), "{}", about.src);
    assert_eq!(
        (
            about.mime.as_str(),
            about.width,
            about.height,
            about.alt.as_str()
        ),
        ("image/jpeg", 1200, 630, "The team on the quay")
    );
    let article = content
        .routes
        .iter()
        .find(|r| matches!(&r.kind, RouteKind::Article { slug } if BODY_ARTICLE.ends_with(&format!("/{slug}.md"))))
        .expect("the article's route");
    let wide = content.cards[&article.path].clone();
    assert!(wide.src.ends_with(".png"), "{}", wide.src);
    assert_eq!(
        (wide.mime.as_str(), wide.alt.as_str()),
        ("image/png", "Two modules side by side")
    );
    // Pages that name no picture keep their drawn card.
    assert_eq!(content.cards["/"].mime, "image/png");

    let store = cache.files();
    let published = |src: &str| {
        let (_, stored) = first
            .files
            .iter()
            .find(|(file, _)| format!("/{file}") == src)
            .unwrap_or_else(|| panic!("{src} is not published"));
        std::fs::read(store.path(&stored.hash)).expect("stored file")
    };
    let bytes = published(&about.src);
    assert!(
        !bytes.windows(8).any(|w| w == GPS_MARK),
        "the share picture keeps its EXIF"
    );
    let picture = image::load_from_memory(&bytes).expect("a JPEG");
    assert_eq!(picture.dimensions(), (1200, 630));
    // The middle of the upright photo: red above, blue below.
    let top = picture.get_pixel(600, 60).0;
    let bottom = picture.get_pixel(600, 570).0;
    assert!(top[0] > 150 && top[2] < 100, "top is {top:?}");
    assert!(bottom[2] > 150 && bottom[0] < 100, "bottom is {bottom:?}");
    let png = image::load_from_memory(&published(&wide.src)).expect("a PNG");
    assert_eq!(png.dimensions(), (1200, 630));
    assert_eq!(png.get_pixel(1190, 300).0[3], 0);

    // A second build makes nothing and publishes the same.
    let mut again = site.load().expect("valid content");
    let second = sitegen::cards::process(&cache, &mut again).expect("cards");
    assert_eq!(second.drawn, 0);
    assert_eq!(again.cards, content.cards);
}

#[test]
fn a_share_picture_is_a_photo_large_enough_with_alt_text() {
    let site = Site::new();
    site.write("images/small.jpg", &jpeg(1000, 700));
    site.write("images/quay.jpg", &jpeg(1600, 900));
    site.edit(
        "pages/about.yaml",
        "meta:\n",
        "meta:\n  share_image: /images/about/team/kristjan-tamm.svg\n  share_image_alt: Kristjan\n",
    );
    site.edit(
        "pages/industries.yaml",
        "meta:\n",
        "meta:\n  share_image: /images/small.jpg\n  share_image_alt: A small picture\n",
    );
    site.edit(
        BODY_ARTICLE,
        "type: article\n",
        "type: article\nshare_image: /images/quay.jpg\n",
    );
    assert_eq!(
        site.load().expect_err("bad share pictures"),
        [
            "content/pages/about.yaml:3:3: `share_image` `/images/about/team/kristjan-tamm.svg` must be a JPEG, PNG or WebP under `/images/`: link previews show no SVG",
            "content/pages/industries.yaml:3:3: `share_image` `/images/small.jpg` is 1000 x 700 px; where it is shown it needs at least 1200 x 630 px",
            &format!(
                "content/{BODY_ARTICLE}:8:1: `share_image` `/images/quay.jpg` has no alternative text: add `share_image_alt` saying what it shows"
            ),
        ]
    );
}

#[test]
fn an_avif_source_is_refused_with_the_reason() {
    let site = Site::new();
    let image = RgbImage::from_pixel(640, 480, Rgb([30, 90, 160]));
    let mut avif = Vec::new();
    image::codecs::avif::AvifEncoder::new_with_speed_quality(&mut avif, 10, 60)
        .write_image(image.as_raw(), 640, 480, image::ExtendedColorType::Rgb8)
        .expect("encode avif");
    site.write("images/harbour.avif", &avif);
    site.edit(
        "pages/industries.yaml",
        "/images/industries/healthcare.svg",
        "/images/harbour.avif",
    );
    assert_eq!(
        site.load().expect_err("an AVIF source"),
        [
            "content/pages/industries.yaml:35:7: `image` `/images/harbour.avif` is an AVIF, which sitegen cannot read (its decoders need libdav1d 1.3, newer than Debian 12 has): name the JPEG, PNG or WebP it was made from; sitegen publishes an AVIF of it itself"
        ]
    );
}

#[test]
fn a_truncated_share_picture_fails_the_cards_stage_at_its_field() {
    let site = Site::new();
    let whole = jpeg(2400, 1400);
    site.write("images/cut.jpg", &whole[..whole.len() / 2]);
    site.edit(
        "pages/about.yaml",
        "meta:\n",
        "meta:\n  share_image: /images/cut.jpg\n  share_image_alt: The team\n",
    );
    let mut content = site.load().expect("its header reads");
    let cache_dir = tempfile::tempdir().expect("tempdir");
    let cache = Cache::open(Some(cache_dir.path())).expect("cache");
    let err = sitegen::cards::process(&cache, &mut content).expect_err("truncated");
    assert!(
        matches!(err, sitegen::cards::CardsError::Content(_)),
        "{err:?}"
    );
    let message = err
        .to_string()
        .replace(&site.content.display().to_string(), "content");
    assert!(
        message.starts_with(
            "content/pages/about.yaml:3:3: `/images/cut.jpg` cannot be decoded: the file ends before the picture does"
        ),
        "{message}"
    );
}

/// The bundle comes before the pictures: a site whose Node packages are not installed fails
/// at once with what to run, before a single photo is encoded (on a fresh clone that is
/// minutes of encoding for nothing).
#[test]
fn a_site_without_its_node_packages_fails_before_any_picture_is_encoded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let site_dir = dir.path().join("site");
    std::fs::create_dir_all(&site_dir).expect("mkdir");
    std::os::unix::fs::symlink(Path::new(REPO).join("site/public"), site_dir.join("public"))
        .expect("link the site's public files");
    let cache_dir = dir.path().join("cache");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sitegen"))
        .arg("build")
        .arg("--content")
        .arg(Path::new(REPO).join("content"))
        .arg("--site")
        .arg(&site_dir)
        .arg("--out")
        .arg(dir.path().join("out"))
        .arg("--cache-dir")
        .arg(&cache_dir)
        .output()
        .expect("sitegen runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("the site's Node packages are not installed")
            && stderr.contains("make deps"),
        "{stderr}"
    );
    assert!(!stderr.contains("encoding the pictures"), "{stderr}");
    let stored = walkdir::WalkDir::new(&cache_dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| std::fs::read(e.path()).is_ok_and(|bytes| image::guess_format(&bytes).is_ok()))
        .count();
    assert_eq!(stored, 0, "no picture was encoded or drawn");
    assert!(!dir.path().join("out").exists(), "no output was published");
}
