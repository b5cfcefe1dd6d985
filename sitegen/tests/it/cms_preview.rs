//! The editor's preview (`sitegen::cms::preview`): the entry as the editor holds it (an article,
//! a page, a service category), written
//! into a copy of the content and loaded as a build loads it, answers the page's content as the
//! content JSON has it, in the entry's language; an entry that does not validate answers its
//! mistakes. Read from the repository's content (left untouched: the preview writes a copy),
//! whose translated article is the point of the language's test.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sitegen::cms::preview::{Preview, Request, preview};

/// An article with an Estonian translation.
const SLUG: &str = "designing-event-driven-apis-that-scale";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The article `SLUG` in `locale` as the editor holds it: its file's front matter and body.
fn entry(locale: &str) -> Value {
    let name = match locale {
        "en" => format!("{SLUG}.md"),
        _ => format!("{SLUG}.{locale}.md"),
    };
    let text = std::fs::read_to_string(repo().join("content/articles").join(name)).expect("read");
    let rest = text.strip_prefix("---\n").expect("front matter");
    let end = rest.find("\n---\n").expect("end of front matter");
    let front: serde_yaml::Value = serde_yaml::from_str(&rest[..end]).expect("YAML");
    let mut data = serde_json::to_value(front).expect("as JSON");
    data["body"] = Value::from(&rest[end + 5..]);
    data
}

fn ask(locale: Option<&str>, data: Value) -> Preview {
    let request: Request = serde_json::from_value(json!({
        "collection": "articles",
        "slug": SLUG,
        "locale": locale,
        "data": data,
    }))
    .expect("request");
    preview(
        &repo().join("content"),
        &repo().join("site/public"),
        &request,
    )
    .expect("preview")
}

/// The previewed content as JSON, and its article `SLUG`.
fn page(preview: Preview) -> (Value, Value) {
    let json = serde_json::to_value(&preview).expect("JSON");
    assert_eq!(json["kind"], "article", "not a page: {json:#}");
    assert_eq!(json["params"], json!({ "slug": SLUG }));
    let content = json["content"].clone();
    let article = (content["articles"].as_array().expect("articles").iter())
        .find(|a| a["slug"] == SLUG)
        .expect("the article is in the content")
        .clone();
    (content, article)
}

#[test]
fn the_edited_article_is_rendered_as_a_build_renders_it() {
    let mut data = entry("en");
    data["title"] = Value::from("A title typed in the editor");
    let body = data["body"].as_str().expect("a body").to_owned();
    data["body"] = Value::from(format!(
        "{body}\n## New section\n\nSee [the services](/services) and:\n\n```rust\nfn main() {{}}\n```\n"
    ));
    let (content, article) = page(ask(None, data));
    assert_eq!(content["settings"]["language"], "en");
    assert!(
        content.get("translations").is_none(),
        "only the entry's language travels"
    );
    assert_eq!(article["title"], "A title typed in the editor");
    let html = article["html"].as_str().expect("html");
    // sitegen's renderer: heading ids, highlighted code.
    assert!(html.contains(r#"<h2 id="new-section""#), "{html}");
    assert!(html.contains(r#"href="/services""#), "{html}");
    assert!(html.contains("<pre"), "{html}");
    let toc = article["toc"].as_array().expect("toc");
    assert_eq!(
        toc.last().expect("a toc entry"),
        &json!({"id": "new-section", "text": "New section", "level": 2})
    );
    // Computed from the body, and the date in the language's words.
    assert!(article["read_time"].as_u64().expect("read_time") > 0);
    assert_eq!(article["date_display"], "February 14, 2024");
    // The rest of the content is the build's: the author the article names, its route.
    assert!(content["authors"][article["author"].as_str().expect("author")].is_object());
    let routes = content["routes"].as_array().expect("routes");
    assert!(
        routes
            .iter()
            .any(|r| r["kind"] == "article" && r["params"]["slug"] == SLUG)
    );
}

#[test]
fn a_translation_is_previewed_in_its_language() {
    let mut data = entry("et");
    data["title"] = Value::from("Eestikeelne pealkiri");
    let (content, article) = page(ask(Some("et"), data));
    assert_eq!(content["settings"]["language"], "et");
    assert_eq!(article["title"], "Eestikeelne pealkiri");
    // The source's fields the translation does not repeat, and the page's words, in Estonian.
    assert_eq!(article["category"], "software-engineering");
    assert_eq!(article["date_display"], "14. veebruar 2024");
    let words = &content["pages"]["insights"]["article"];
    let file = std::fs::read_to_string(repo().join("content/pages/insights.et.yaml"))
        .expect("insights.et.yaml");
    let estonian: serde_yaml::Value = serde_yaml::from_str(&file).expect("YAML");
    assert_eq!(
        words["toc_label"].as_str(),
        estonian["article"]["toc_label"].as_str()
    );
}

#[test]
fn an_invalid_entry_answers_its_mistakes_at_its_file() {
    let mut data = entry("en");
    data["date"] = Value::from("the day after tomorrow");
    let json = serde_json::to_value(ask(Some("en"), data)).expect("JSON");
    let errors = json["errors"].as_array().expect("mistakes");
    let named = format!("content/articles/{SLUG}.md:");
    assert!(
        errors.iter().any(|e| e
            .as_str()
            .is_some_and(|e| e.starts_with(&named) && e.contains("date"))),
        "{errors:#?}"
    );
    // The repository's file is untouched.
    let on_disk = std::fs::read_to_string(repo().join(format!("content/articles/{SLUG}.md")))
        .expect("the article");
    assert!(on_disk.contains("date: 2024-02-14\n"));
}

#[test]
fn what_has_no_page_to_preview_is_refused() {
    for (collection, slug, locale) in [
        ("pages", SLUG, "en"),
        ("settings", "site", "en"),
        ("articles", "../site", "en"),
        ("articles", SLUG, "fr"),
    ] {
        let request: Request = serde_json::from_value(json!({
            "collection": collection, "slug": slug, "locale": locale, "data": entry("en"),
        }))
        .expect("request");
        let err = preview(
            &repo().join("content"),
            &repo().join("site/public"),
            &request,
        )
        .expect_err("refused");
        assert!(err.is::<sitegen::cms::preview::Unsupported>(), "{err:#}");
    }
}

/// The file entry at the editor's `path` in `locale`, as the editor shows it: `sitegen dev`'s
/// answer to `getEntry`.
fn file_entry(path: &str, locale: &str) -> Value {
    let backend = sitegen::cms::Backend::Local {
        proxy_url: sitegen::cms::LOCAL_PROXY_URL.into(),
    };
    let content = repo().join("content");
    let config = sitegen::cms::config(&content, "content", backend).expect("config");
    let local = sitegen::cms::local::Local::new(&content, &repo().join("site/public"), config)
        .expect("backend");
    let request: sitegen::cms::local::Request =
        serde_json::from_value(json!({"action": "getEntry", "params": {"path": path}}))
            .expect("request");
    let answer = local.handle(&request).expect("entry");
    let text = answer["data"].as_str().expect("the entry's text");
    let document: serde_yaml::Value = serde_yaml::from_str(text).expect("YAML");
    serde_json::to_value(&document[locale]).expect("as JSON")
}

fn ask_file(collection: &str, slug: &str, locale: &str, data: Value) -> Value {
    let request: Request = serde_json::from_value(json!({
        "collection": collection, "slug": slug, "locale": locale, "data": data,
    }))
    .expect("request");
    let answer = preview(
        &repo().join("content"),
        &repo().join("site/public"),
        &request,
    )
    .expect("preview");
    serde_json::to_value(answer).expect("JSON")
}

#[test]
fn a_page_and_a_service_category_are_previewed_from_the_fields_the_editor_holds() {
    let mut about = file_entry("content/pages/about.yaml", "en");
    about["hero"]["lead"] = Value::from("A lead typed in the editor.");
    let answer = ask_file("pages", "about", "en", about);
    assert_eq!(answer["kind"], "about", "{answer:#}");
    assert_eq!(
        answer["content"]["pages"]["about"]["hero"]["lead"],
        "A lead typed in the editor."
    );

    let mut estonian = file_entry("content/pages/about.yaml", "et");
    estonian["hero"]["lead"] = Value::from("Toimetajas kirjutatud juhtlõik.");
    let answer = ask_file("pages", "about", "et", estonian);
    assert_eq!(answer["content"]["settings"]["language"], "et");
    assert_eq!(
        answer["content"]["pages"]["about"]["hero"]["lead"],
        "Toimetajas kirjutatud juhtlõik."
    );

    let mut cloud = file_entry("content/services/cloud-services.yaml", "en");
    cloud["hero"]["lead"] = Value::from("Cloud that pays for itself.");
    let answer = ask_file("services", "cloud-services", "en", cloud);
    assert_eq!(answer["kind"], "service-category");
    assert_eq!(answer["params"], json!({ "category": "cloud-services" }));
    let services = answer["content"]["services"].as_array().expect("services");
    let category = (services.iter())
        .find(|c| c["slug"] == "cloud-services")
        .expect("the category");
    assert_eq!(category["hero"]["lead"], "Cloud that pays for itself.");
}
