//! Pictures and new articles through `sitegen dev`'s backend of the editor (`cms::local`, the
//! proxy protocol's media actions and `persistEntry` with assets): what lands on disk, in which
//! layout, and what is refused with which message before anything is written.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{Value, json};

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// The backend of the editor on a copy of the content, and the copy.
fn local() -> (tempfile::TempDir, PathBuf, sitegen::cms::local::Local) {
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("content");
    crate::common::copy_dir(&content(), &copy).expect("copy");
    let backend = sitegen::cms::Backend::Local {
        proxy_url: sitegen::cms::LOCAL_PROXY_URL.into(),
    };
    let config = sitegen::cms::config(&copy, "content", backend).expect("config");
    let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../site/public");
    let local = sitegen::cms::local::Local::new(&copy, &public, config).expect("backend");
    (dir, copy, local)
}

fn request(action: &str, params: Value) -> sitegen::cms::local::Request {
    serde_json::from_value(json!({ "action": action, "params": params })).expect("request")
}

/// A PNG as wide as an illustration must be (the first width of its ladder).
fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_fn(480, 270, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    })
    .write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .expect("encodes");
    bytes
}

fn asset(path: &str, bytes: &[u8]) -> Value {
    json!({
        "path": path,
        "content": base64::engine::general_purpose::STANDARD.encode(bytes),
        "encoding": "base64",
    })
}

/// An article as the editor sends a new one: every field of the form, those left empty too,
/// the required ones first and the rest by name.
const NEW_ARTICLE: &str = "---\ntitle: Pictures from the browser\nexcerpt: Written and illustrated in the editor.\n\
    author: maria-tamm\ndate: 2026-12-07\ncategory: cloud-services\ntype: article\n\
    image: /images/pictures-from-the-browser.png\naliases: []\ndecorative: false\ndraft: false\n\
    expires_at: ''\nfeatured: false\nimage_alt: A gradient from green to blue\npublish_at: ''\n\
    read_time: null\nshare_image: ''\nshare_image_alt: ''\n---\nThe body, in **Markdown**.\n";

/// Its Estonian translation: the translated fields and its own slug.
const NEW_TRANSLATION: &str = "---\ntitle: Pildid brauserist\nexcerpt: Kirjutatud ja illustreeritud toimetis.\n\
    image_alt: Üleminek rohelisest siniseks\nslug: pildid-brauserist\n---\nSisu.\n";

fn persist(
    local: &sitegen::cms::local::Local,
    files: Value,
    assets: Value,
) -> Result<Value, String> {
    local
        .handle(&request(
            "persistEntry",
            json!({ "dataFiles": files, "assets": assets, "options": { "newEntry": true } }),
        ))
        .map_err(|err| err.to_string())
}

#[test]
fn a_new_article_with_its_picture_and_translation_is_written_as_the_project_writes_them() {
    let (_dir, copy, local) = local();
    persist(
        &local,
        json!([
            { "path": "content/articles/pictures-from-the-browser.en.md", "raw": NEW_ARTICLE },
            { "path": "content/articles/pictures-from-the-browser.et.md", "raw": NEW_TRANSLATION },
        ]),
        json!([asset(
            "content/images/pictures-from-the-browser.png",
            &png()
        )]),
    )
    .expect("saved");
    let source = std::fs::read_to_string(copy.join("articles/pictures-from-the-browser.md"))
        .expect("article");
    // The model's order, plain values, no empty or `false` field, the body after a blank line.
    assert_eq!(
        source,
        "---\ntitle: Pictures from the browser\nexcerpt: Written and illustrated in the editor.\n\
         author: maria-tamm\ndate: 2026-12-07\ncategory: cloud-services\ntype: article\n\
         image: /images/pictures-from-the-browser.png\nimage_alt: A gradient from green to blue\n\
         ---\n\nThe body, in **Markdown**.\n"
    );
    let translation =
        std::fs::read_to_string(copy.join("articles/pictures-from-the-browser.et.md"))
            .expect("translation");
    let digest = sitegen::content::status::digest(source.as_bytes());
    assert_eq!(
        translation,
        format!(
            "---\n# translated_from: {digest}\ntitle: Pildid brauserist\nexcerpt: Kirjutatud ja illustreeritud toimetis.\n\
             image_alt: Üleminek rohelisest siniseks\nslug: pildid-brauserist\n---\n\nSisu.\n"
        )
    );
    assert_eq!(
        std::fs::read(copy.join("images/pictures-from-the-browser.png")).expect("picture"),
        png()
    );
    // The translation follows its source as written: `sitegen i18n status` counts it done.
    let status = sitegen::content::status::status(&copy).expect("status");
    let entry = status.languages[0]
        .entries
        .iter()
        .find(|e| e.source == "articles/pictures-from-the-browser.md")
        .expect("listed");
    assert_eq!(entry.state, sitegen::content::status::State::Translated);

    // A language left empty in the form comes as an empty file, and is not written.
    persist(
        &local,
        json!([
            { "path": "content/articles/a-second-one.en.md", "raw": NEW_ARTICLE
                .replace("Pictures from the browser", "A second one")
                .replace("/images/pictures-from-the-browser.png", "/images/insights/event-driven-apis.svg") },
            { "path": "content/articles/a-second-one.et.md", "raw": "\n" },
        ]),
        json!([]),
    )
    .expect("saved");
    assert!(copy.join("articles/a-second-one.md").exists());
    assert!(!copy.join("articles/a-second-one.et.md").exists());

    // The media library lists the picture; it is not deleted while the article names it.
    let listed = local
        .handle(&request(
            "getMedia",
            json!({ "mediaFolder": "content/images" }),
        ))
        .expect("listed");
    assert_eq!(
        listed[0]["path"],
        "content/images/pictures-from-the-browser.png"
    );
    let err = local
        .handle(&request(
            "deleteFile",
            json!({ "path": "content/images/pictures-from-the-browser.png" }),
        ))
        .expect_err("in use");
    assert_eq!(
        err.to_string(),
        "content/images/pictures-from-the-browser.png is not deleted: \
         content/articles/pictures-from-the-browser.md names /images/pictures-from-the-browser.png"
    );

    // A second new article under the same name replaces nothing.
    let err = persist(
        &local,
        json!([{ "path": "content/articles/pictures-from-the-browser.en.md", "raw": NEW_ARTICLE }]),
        json!([]),
    )
    .expect_err("exists");
    assert_eq!(
        err,
        "content/articles/pictures-from-the-browser.md already exists: give the new article another title"
    );
}

#[test]
fn an_upload_that_is_no_picture_is_refused_and_nothing_is_written() {
    let (_dir, copy, local) = local();
    let err = persist(
        &local,
        json!([{ "path": "content/articles/pictures-from-the-browser.en.md", "raw": NEW_ARTICLE }]),
        json!([asset(
            "content/images/pictures-from-the-browser.png",
            b"%PDF-1.7 not a picture"
        )]),
    )
    .expect_err("refused");
    assert_eq!(
        err,
        "pictures-from-the-browser.png: the file is not a PNG picture"
    );
    let err = local
        .handle(&request(
            "persistMedia",
            json!({ "asset": asset("content/images/notes.pdf", b"%PDF-1.7"), "options": {} }),
        ))
        .expect_err("refused");
    assert_eq!(
        err.to_string(),
        "notes.pdf: not a picture the site can publish; upload a jpg, jpeg, png or webp file"
    );
    assert!(!copy.join("articles/pictures-from-the-browser.md").exists());
    assert!(!copy.join("images/pictures-from-the-browser.png").exists());
    assert!(!copy.join("images/notes.pdf").exists());
}

#[test]
fn an_article_whose_picture_says_nothing_is_refused_with_the_field_and_nothing_is_written() {
    let (_dir, copy, local) = local();
    let raw = NEW_ARTICLE.replace(
        "image_alt: A gradient from green to blue\n",
        "image_alt: ''\n",
    );
    let err = persist(
        &local,
        json!([{ "path": "content/articles/pictures-from-the-browser.en.md", "raw": raw }]),
        json!([asset(
            "content/images/pictures-from-the-browser.png",
            &png()
        )]),
    )
    .expect_err("refused");
    assert!(
        err.contains("content/articles/pictures-from-the-browser.md:") && err.contains("image_alt"),
        "{err}"
    );
    assert!(!copy.join("articles/pictures-from-the-browser.md").exists());
    assert!(
        !copy.join("images/pictures-from-the-browser.png").exists(),
        "the picture waits for its article"
    );
}

#[tokio::test]
async fn a_photo_larger_than_a_default_request_reaches_the_backend_and_one_too_large_is_refused() {
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("content");
    crate::common::copy_dir(&content(), &copy).expect("copy");
    let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../site/public");
    let router = sitegen::cms::local::router(copy.clone(), public);
    // Noise does not compress: a PNG of 3 MB, more than axum's default limit of 2 MB.
    let mut state = 0x2545_f491_u32;
    let photo = image::RgbImage::from_fn(1000, 1000, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let [r, g, b, _] = state.to_le_bytes();
        image::Rgb([r, g, b])
    });
    let mut bytes = Vec::new();
    photo
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .expect("encodes");
    assert!(bytes.len() > 2 * 1024 * 1024, "{} bytes", bytes.len());
    let post = |bytes: &[u8], name: &str| {
        let body = json!({
            "action": "persistMedia",
            "params": { "asset": asset(&format!("content/images/{name}"), bytes), "options": {} },
        });
        Request::post(sitegen::cms::LOCAL_PROXY_URL)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("request")
    };
    let answer = router
        .clone()
        .oneshot(post(&bytes, "noise.png"))
        .await
        .expect("answer");
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(
        std::fs::read(copy.join("images/noise.png")).expect("written"),
        bytes
    );

    // Over the limit: refused with the sizes, as JSON the editor shows.
    let mut big = bytes.clone();
    big.resize(sitegen::cms::media::MAX_UPLOAD_BYTES + 1, 0);
    let answer = router.oneshot(post(&big, "big.png")).await.expect("answer");
    assert_eq!(answer.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = to_bytes(answer.into_body(), usize::MAX)
        .await
        .expect("body");
    let error: Value = serde_json::from_slice(&body).expect("json");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("big.png: ") && e.contains("is larger than")),
        "{error}"
    );
    assert!(!copy.join("images/big.png").exists());
}
