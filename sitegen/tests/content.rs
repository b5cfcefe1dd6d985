//! Loading and validating content: the real `content/` must be valid, and each broken fixture
//! must fail with the exact `file:line:col: message` lines a user would see.
//!
//! Each fixture under `tests/fixtures/content/` is an overlay: its files are copied over a copy
//! of the real content directory, so a fixture holds only what it breaks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sitegen::content::{Content, FixedPage, RouteKind};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk fixture");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Loads the real content with `fixture` laid over it (an `article*` fixture replaces the
/// articles); errors are rendered with the
/// content directory shown as `content`.
fn load_with(fixture: Option<&str>) -> Result<Content, Vec<String>> {
    load(fixture, None)
}

/// Loads the real content without the file `rel` (relative to the content directory).
fn load_without(rel: &str) -> Result<Content, Vec<String>> {
    load(None, Some(rel))
}

fn load(fixture: Option<&str>, removed: Option<&str>) -> Result<Content, Vec<String>> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("content");
    copy_dir(&repo().join("content"), &dir);
    // An article fixture is the whole set of articles, whatever content/articles/ holds.
    if fixture.is_some_and(|name| name.starts_with("article")) {
        std::fs::remove_dir_all(dir.join("articles")).ok();
    }
    if let Some(name) = fixture {
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/content")
                .join(name),
            &dir,
        );
    }
    if let Some(rel) = removed {
        std::fs::remove_file(dir.join(rel)).expect("remove");
    }
    Content::load(&dir, &repo().join("site/public")).map_err(|errors| {
        errors
            .0
            .iter()
            .map(|e| {
                e.to_string()
                    .replace(&dir.display().to_string(), "content")
                    .replace(
                        &repo().join("site/public").display().to_string(),
                        "SITE_PUBLIC",
                    )
            })
            .collect()
    })
}

/// The real content file `file` with `from` replaced by `to`.
fn edited(file: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(repo().join("content").join(file)).expect("read");
    assert!(text.contains(from), "{file} does not contain {from:?}");
    text.replacen(from, to, 1)
}

/// Loads the real content with `file`'s text replaced by `text`.
fn errors_with(file: &str, text: &str) -> Vec<String> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("content");
    copy_dir(&repo().join("content"), &dir);
    std::fs::write(dir.join(file), text).expect("write content file");
    match Content::load(&dir, &repo().join("site/public")) {
        Ok(_) => panic!("the edited {file} should not load"),
        Err(errors) => errors
            .0
            .iter()
            .map(|e| e.to_string().replace(&dir.display().to_string(), "content"))
            .collect(),
    }
}

/// `line:column` (1-based, in characters) where `needle` starts in `text`.
fn position(text: &str, needle: &str) -> String {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not found"));
    let line = text[..at].matches('\n').count() + 1;
    // In characters, as editors count columns (and the errors do).
    let column = text[text[..at].rfind('\n').map_or(0, |n| n + 1)..at]
        .chars()
        .count()
        + 1;
    format!("{line}:{column}")
}

fn errors_of(fixture: &str) -> Vec<String> {
    match load_with(Some(fixture)) {
        Ok(_) => panic!("fixture {fixture} should not load"),
        Err(errors) => errors,
    }
}

#[test]
fn the_real_content_is_valid_and_publishes_every_route_of_the_site() {
    let content = load_with(None).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let paths: Vec<&str> = content.routes.iter().map(|r| r.path.as_str()).collect();
    // The 39 pages of the site, the two pages a form sent without JavaScript ends on, the
    // newsletter's pages, the article listing of each of the 4 categories, and one page per
    // article.
    let newsletter = form_contract::NewsletterPage::ALL;
    assert_eq!(
        paths.len(),
        41 + newsletter.len() + 4 + content.articles.len(),
        "{paths:#?}"
    );
    for path in [
        "/",
        "/services/data-analytics/data-strategy",
        "/services/data-analytics/insights",
        "/services/artificial-intelligence/computer-vision",
        "/services/cloud-services/legacy-modernization",
        "/services/software-engineering/api-development",
        "/contact/sent",
        "/contact/error",
        "/newsletter/pending",
        "/newsletter/confirmed",
        "/newsletter/invalid",
    ] {
        assert!(paths.contains(&path), "missing route {path}");
    }
    let unique: BTreeSet<&str> = paths.iter().copied().collect();
    assert_eq!(unique.len(), paths.len(), "a path is published twice");
    let unlisted: Vec<&str> = content
        .routes
        .iter()
        .filter(|r| !r.in_sitemap)
        .map(|r| r.path.as_str())
        .collect();
    let mut expected = vec!["/contact/sent".to_owned(), "/contact/error".to_owned()];
    expected.extend(newsletter.iter().map(|page| format!("/newsletter/{page}")));
    assert_eq!(
        unlisted, expected,
        "the pages a form or a link ends on are not listed"
    );
    let categories: Vec<&str> = content.services.iter().map(|c| c.slug.as_str()).collect();
    assert_eq!(
        categories,
        [
            "data-analytics",
            "artificial-intelligence",
            "cloud-services",
            "software-engineering"
        ]
    );
}

#[test]
fn each_fixed_page_of_the_table_is_read_from_its_file_and_published_with_its_kind() {
    let content = load_with(None).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let pages_dir = repo().join("content/pages");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&pages_dir)
        .expect("content/pages")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        // Translations (`about.et.yaml`) sit beside their pages.
        .filter(|name| !sitegen::content::translate::is_translation(name))
        .collect();
    let in_table: BTreeSet<String> = FixedPage::ALL
        .iter()
        .map(|p| p.file_name().to_owned())
        .collect();
    assert_eq!(
        on_disk, in_table,
        "content/pages/ and the page table differ"
    );

    // The fixed pages come first, in the table's order, each with its own meta.
    assert!(content.routes.len() > FixedPage::ALL.len());
    for (route, page) in content.routes.iter().zip(FixedPage::ALL) {
        assert_eq!(route.kind, RouteKind::Fixed(*page));
        assert_eq!(route.path, page.path());
        assert_eq!(route.title, content.pages.meta(*page).title);
        assert_eq!(route.description, content.pages.meta(*page).description);
        assert!(route.in_sitemap, "{} is not in the sitemap", route.path);
    }
    assert_eq!(FixedPage::Home.path(), "/");
    assert_eq!(FixedPage::CaseStudies.file(), "pages/case-studies.yaml");
    assert_eq!(FixedPage::CaseStudies.path(), "/case-studies");
}

#[test]
fn a_missing_page_file_is_reported_with_its_name() {
    let errors = load_without("pages/case-studies.yaml").expect_err("must not load");
    assert_eq!(
        errors,
        ["content/pages/case-studies.yaml: file is missing; every page needs its content file"]
    );
}

#[test]
fn every_route_carries_its_kind_and_parameters_in_the_content_json() {
    let content = load_with(None).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let json = serde_json::to_value(&content).expect("serializes");
    let routes = json["routes"].as_array().expect("routes");
    let route = |path: &str| {
        let mut found = routes
            .iter()
            .find(|r| r["path"] == path)
            .unwrap_or_else(|| panic!("no route {path}"))
            .clone();
        let object = found.as_object_mut().expect("object");
        object.remove("title");
        object.remove("description");
        // Its versions in each language: see tests/i18n.rs.
        object.remove("versions");
        found
    };
    assert_eq!(
        route("/services/cloud-services/legacy-modernization"),
        serde_json::json!({
            "path": "/services/cloud-services/legacy-modernization",
            "kind": "sub-service",
            "params": {"category": "cloud-services", "service": "legacy-modernization"},
            "in_sitemap": true,
        })
    );
    assert_eq!(
        route("/services/data-analytics"),
        serde_json::json!({
            "path": "/services/data-analytics",
            "kind": "service-category",
            "params": {"category": "data-analytics"},
            "in_sitemap": true,
        })
    );
    assert_eq!(
        route("/case-studies"),
        serde_json::json!({"path": "/case-studies", "kind": "case-studies", "in_sitemap": true})
    );
    assert_eq!(
        route("/contact/sent"),
        serde_json::json!({"path": "/contact/sent", "kind": "contact-sent", "in_sitemap": false})
    );

    // Every route's path is the one its kind and parameters name: no other derivation exists.
    for route in &content.routes {
        assert_eq!(route.path, route.kind.path());
    }
    let sub_services: usize = content.services.iter().map(|c| c.sub_services.len()).sum();
    let count =
        |wanted: fn(&RouteKind) -> bool| content.routes.iter().filter(|r| wanted(&r.kind)).count();
    assert_eq!(
        count(|k| matches!(k, RouteKind::ServiceCategory { .. })),
        content.services.len()
    );
    assert_eq!(
        count(|k| matches!(k, RouteKind::SubService { .. })),
        sub_services
    );
}

#[test]
fn an_unknown_field_names_file_line_column_and_the_expected_fields() {
    assert_eq!(
        errors_of("unknown-field"),
        [
            "content/services/zz-fixture.yaml:18:7: sub_services[0].hero: unknown field `titel`, \
          expected one of `eyebrow`, `title`, `highlight`, `lead`, `actions`"
        ]
    );
}

#[test]
fn a_yaml_syntax_error_names_file_line_and_column() {
    assert_eq!(
        errors_of("yaml-syntax"),
        ["content/services/zz-fixture.yaml:7:15: mapping values are not allowed in this context"]
    );
}

#[test]
fn a_link_to_no_page_is_reported_at_its_field_with_a_suggestion() {
    assert_eq!(
        errors_of("broken-link"),
        [
            "content/services/zz-fixture.yaml:13:7: link `/contcat` leads to no page; did you mean `/contact`?"
        ]
    );
}

#[test]
fn a_duplicate_slug_is_reported_at_the_second_use() {
    assert_eq!(
        errors_of("duplicate-slug"),
        [
            "content/services/zz-fixture.yaml:16:5: duplicate slug `twin`: sub_services[0] already uses it"
        ]
    );
}

#[test]
fn the_services_menu_and_footer_column_list_the_categories_in_their_order() {
    let content = load_with(None).expect("the real content loads");
    let expected: Vec<(String, String)> = content
        .services
        .iter()
        .map(|c| (c.name.clone(), format!("/services/{}", c.slug)))
        .collect();
    assert_eq!(expected.len(), 4);
    let pairs = |links: &[sitegen::content::common::Link]| -> Vec<(String, String)> {
        links
            .iter()
            .map(|l| (l.label.clone(), l.href.clone()))
            .collect()
    };
    assert_eq!(pairs(&content.settings.nav.services.links), expected);
    let column = content
        .settings
        .footer
        .columns
        .iter()
        .find(|c| c.title == "Services")
        .expect("a Services column");
    assert_eq!(pairs(&column.links), expected);
}

#[test]
fn category_links_written_by_hand_or_a_column_without_links_are_reported_at_their_field() {
    let text = edited(
        "site.yaml",
        "    label: Services\n",
        "    label: Services\n    links:\n      - { label: Data, href: /services/data-analytics }\n",
    );
    assert_eq!(
        errors_with("site.yaml", &text),
        [format!(
            "content/site.yaml:{}: the Services menu lists the service categories of `services/` by itself; remove `links`",
            position(&text, "links:\n      - { label: Data")
        )]
    );
    let text = edited("site.yaml", "      links_from: service-categories\n", "");
    assert_eq!(
        errors_with("site.yaml", &text),
        [format!(
            "content/site.yaml:{}: the column has no links: add `links`, or `links_from: service-categories`",
            position(&text, "title: Services")
        )]
    );
}

#[test]
fn every_mistake_is_reported_in_one_run() {
    let errors = errors_of("many-errors");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].starts_with("content/services/zz-fixture.yaml:4:7: icon: unknown variant `rocketship`, expected one of `linkedin`,"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with(
            "content/pages/abuot.yaml: unexpected content file; pages are home.yaml, about.yaml,"
        ),
        "{}",
        errors[1]
    );
}

#[test]
fn an_error_code_without_words_in_forms_yaml_is_reported_at_the_errors_of_each_form() {
    let text = edited(
        "forms.yaml",
        "      too_long: This is longer than we can take; please shorten it.\n",
        "",
    );
    let errors_at = position(&text, "errors: &errors\n");
    // The enquiry form's messages are an alias of the contact form's; the newsletter form's
    // error words are an alias of the contact form's too.
    let alias_at = position(&text, "messages: *messages");
    let errors_alias_at = position(&text, "errors: *errors");
    assert_eq!(
        errors_with("forms.yaml", &text),
        [
            format!(
                "content/forms.yaml:{errors_at}: contact.messages.errors: no words for the \
                 error codes `too_long`; each needs a line here"
            ),
            format!(
                "content/forms.yaml:{alias_at}: enquiry.messages.errors: no words for the \
                 error codes `too_long`; each needs a line here"
            ),
            format!(
                "content/forms.yaml:{errors_alias_at}: newsletter.messages.errors: no words for \
                 the error codes `too_long`; each needs a line here"
            ),
        ]
    );
}

#[test]
fn an_unknown_error_code_in_forms_yaml_is_reported_with_the_known_ones() {
    let text = edited("forms.yaml", "      too_long:", "      too_lng:");
    let at = position(&text, "too_lng:");
    let errors = errors_with("forms.yaml", &text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with(&format!(
            "content/forms.yaml:{at}: contact.messages.errors: unknown variant `too_lng`, \
             expected one of `required`, `too_long`,"
        )),
        "{}",
        errors[0]
    );
}

#[test]
fn a_dropdown_answer_without_words_in_forms_yaml_is_reported_at_its_options() {
    let text = edited("forms.yaml", "        referral: Referral\n", "");
    let at = position(&text, "options:\n        search:");
    assert_eq!(
        errors_with("forms.yaml", &text),
        [format!(
            "content/forms.yaml:{at}: enquiry.fields.source.options: no words for the \
             options `referral`; each needs a line here"
        )]
    );
}

/// The member names of `value` as JSON.
fn keys(value: &impl serde::Serialize) -> Vec<String> {
    let json = serde_json::to_value(value).expect("serialise");
    json.as_object()
        .map(|fields| fields.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_forms_words_name_exactly_the_fields_of_the_form_contract() {
    let content = load_with(None).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    // The contact form's text fields are CONTACT's; its file field is ATTACHMENTS.
    let mut contact = keys(&form_contract::CONTACT);
    contact.push(form_contract::ATTACHMENTS.name.to_owned());
    contact.sort();
    assert_eq!(keys(&content.forms.contact.fields), contact);
    assert_eq!(
        keys(&content.forms.enquiry.fields),
        keys(&form_contract::ENQUIRY)
    );
}

#[test]
fn articles_load_newest_first_with_rendered_bodies_and_routes() {
    let content = load_with(Some("articles")).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let slugs: Vec<&str> = content.articles.iter().map(|a| a.slug.as_str()).collect();
    assert_eq!(
        slugs,
        [
            "generative-ai-in-the-enterprise",
            "data-governance",
            "modern-data-stack"
        ]
    );
    let first = &content.articles[0];
    assert_eq!(first.date_display, "March 14, 2024");
    assert!(first.html.contains("<h2 id=\"where-pilots-stall\">"));
    assert!(first.html.contains("hl-keyword"));
    assert_eq!(first.toc.len(), 4, "three `##` and one `###` heading");
    assert!(first.text.contains("zanzibarite"));
    // Written read times win; absent ones come from the body.
    assert_eq!(content.articles[2].read_time, 9);
    assert_eq!(content.articles[1].read_time, 1);
    assert!(
        content.articles[1].toc.is_empty(),
        "a short article has no contents"
    );
    for article in &content.articles {
        let route = content
            .routes
            .iter()
            .find(|r| {
                r.kind
                    == RouteKind::Article {
                        slug: article.slug.clone(),
                    }
            })
            .expect("every article has a page");
        assert_eq!(route.path, format!("/insights/{}", article.slug));
        assert_eq!(route.description, article.excerpt);
        assert!(route.in_sitemap);
    }
    for category in &content.services {
        assert!(
            content
                .routes
                .iter()
                .any(|r| r.path == format!("/insights/category/{}", category.slug)),
            "no listing for {}",
            category.slug
        );
    }
}

#[test]
fn front_matter_mistakes_point_at_lines_of_the_markdown_file() {
    let real = load_with(None).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let authors: Vec<&str> = real.authors.keys().map(String::as_str).collect();
    assert_eq!(
        errors_of("article-errors"),
        [
            "content/articles/bad-front-matter.md:5:1: date `2024-14-03` has no month 14".to_owned(),
            format!(
                "content/articles/bad-front-matter.md:4:1: unknown author `nobody-at-all`; authors.yaml declares: {}",
                authors.join(", ")
            ),
            "content/articles/bad-front-matter.md:6:1: unknown category `quantum-computing`; expected one of: data-analytics, artificial-intelligence, cloud-services, software-engineering".to_owned(),
            "content/articles/bad-front-matter.md:8:1: `image` `/images/insights/missing.svg` does not exist: expected the file SITE_PUBLIC/images/insights/missing.svg".to_owned(),
        ]
    );
    assert_eq!(
        errors_of("article-unknown-field"),
        [
            "content/articles/unknown-field.md:6:1: unknown field `categroy`, expected one of `title`, `excerpt`, `author`, `date`, `category`, `type`, `image`, `image_alt`, `decorative`, `share_image`, `share_image_alt`, `featured`, `read_time`, `aliases`, `draft`, `publish_at`, `expires_at`"
        ]
    );
}

#[test]
fn a_broken_link_in_an_article_body_is_reported_where_it_is_written() {
    assert_eq!(
        errors_of("article-broken-link"),
        [
            "content/articles/broken-link.md:14:12: link `/services/cloud-services/devop` leads to no page; did you mean `/services/cloud-services/devops`?"
        ]
    );
}

#[test]
fn the_feed_lists_every_article_with_absolute_urls_summary_and_content() {
    let content = load_with(Some("articles")).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let feed = sitegen::feed::render(&content).expect("renders");
    insta::assert_snapshot!("feed.xml", feed);
}

#[test]
fn the_feed_carries_only_the_newest_articles() {
    let mut content = load_with(Some("articles")).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let first = content
        .articles
        .first()
        .cloned()
        .expect("the fixture has articles");
    // As many articles as the feed carries and ten more, newest first as the model keeps them.
    content.articles = (0..sitegen::feed::FEED_ENTRIES + 10)
        .map(|n| {
            let mut article = first.clone();
            article.slug = format!("article-{n}");
            article
        })
        .collect();
    let feed = sitegen::feed::render(&content).expect("renders");
    assert_eq!(feed.matches("<entry>").count(), sitegen::feed::FEED_ENTRIES);
    assert!(feed.contains("/insights/article-0/"));
    assert!(!feed.contains(&format!(
        "/insights/article-{}/",
        sitegen::feed::FEED_ENTRIES
    )));
}

/// Loads the real content with each `(file, text)` written over it; errors and warnings are
/// rendered with the content directory shown as `content`.
fn load_files(files: &[(&str, &str)]) -> (Result<Content, Vec<String>>, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("content");
    copy_dir(&repo().join("content"), &dir);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write content file");
    }
    let shown = |e: &sitegen::content::ContentError| {
        e.to_string().replace(&dir.display().to_string(), "content")
    };
    let root = dir.display().to_string();
    match Content::load(&dir, &repo().join("site/public")) {
        Ok(content) => (Ok(content), root),
        Err(errors) => (Err(errors.0.iter().map(shown).collect()), root),
    }
}

const ABOUT_META: &str = "meta:\n  title: About Us | Nordvale\n";

#[test]
fn aliases_and_redirects_yaml_make_one_table_and_a_chain_is_collapsed_with_a_warning() {
    use sitegen::content::redirects::{Redirect, Target};
    let about = edited(
        "pages/about.yaml",
        ABOUT_META,
        "meta:\n  aliases: [/company/, /team]\n  title: About Us | Nordvale\n",
    );
    let article = "articles/choosing-between-a-modular-monolith-and-microservices.md";
    let moved = edited(
        article,
        "type: article\n",
        "type: article\naliases:\n  - /insights/monolith-first\n",
    );
    let redirects = "\
/old-services: /services/
/partners: https://partners.example.com/
/offers/2023: gone
/people: /old-team
/old-team: /about#team
";
    let (loaded, root) = load_files(&[
        ("pages/about.yaml", &about),
        (article, &moved),
        ("redirects.yaml", redirects),
    ]);
    let content = loaded.expect("loads");
    let page = |p: &str| Target::Page(p.into());
    let table: Vec<(&str, &Target, bool)> = content
        .redirects
        .iter()
        .map(
            |Redirect {
                 from, to, alias, ..
             }| (from.as_str(), to, *alias),
        )
        .collect();
    assert_eq!(
        table,
        vec![
            ("/company", &page("/about"), true),
            (
                "/insights/monolith-first",
                &page("/insights/choosing-between-a-modular-monolith-and-microservices"),
                true
            ),
            ("/offers/2023", &Target::Gone, false),
            ("/old-services", &page("/services"), false),
            ("/old-team", &page("/about#team"), false),
            (
                "/partners",
                &Target::Url("https://partners.example.com/".into()),
                false
            ),
            ("/people", &page("/about#team"), false),
            ("/team", &page("/about"), true),
        ]
    );
    let warnings: Vec<String> = content
        .warnings
        .iter()
        .map(|w| w.to_string().replace(&root, "content"))
        .collect();
    assert_eq!(
        warnings,
        vec![format!(
            "content/redirects.yaml:{}: `/people` redirects through /old-team -> /about#team: collapsed to `/about#team`; write that target here",
            position(redirects, "/people")
        )]
    );
    // Aliases are in no route: no sitemap, feed or search index lists them.
    assert!(content.routes.iter().all(|r| r.path != "/company"));
}

#[test]
fn each_mistake_of_a_redirect_is_reported_at_its_line() {
    let about = edited(
        "pages/about.yaml",
        ABOUT_META,
        "meta:\n  aliases: [/services, /company]\n  title: About Us | Nordvale\n",
    );
    let redirects = "\
/company/: /contact
/old-team: /abuot
/loop-a: /loop-b
/loop-b: /loop-a/
/nowhere: elsewhere
/loop-a: /about
";
    let (loaded, _) = load_files(&[("pages/about.yaml", &about), ("redirects.yaml", redirects)]);
    let errors = loaded.map(|_| ()).expect_err("fails");
    let at = |needle: &str| position(redirects, needle);
    assert_eq!(
        errors,
        vec![
            format!(
                "content/pages/about.yaml:{}: alias `/services` is the path of a published page, which it would hide: remove it, or move that page",
                position(&about, "/services")
            ),
            format!(
                "content/redirects.yaml:{}: `/company` has two entries: content/pages/about.yaml:{} also redirects it; keep one",
                at("/company/"),
                position(&about, "/company")
            ),
            format!(
                "content/redirects.yaml:{}: `/old-team` redirects to `/abuot`, which leads to no page; did you mean `/about`?",
                at("/old-team")
            ),
            format!(
                "content/redirects.yaml:{}: redirect loop: /loop-a -> /loop-b -> /loop-a; point one of them at a page",
                at("/loop-a:")
            ),
            format!(
                "content/redirects.yaml:{}: redirect loop: /loop-b -> /loop-a -> /loop-b; point one of them at a page",
                at("/loop-b:")
            ),
            format!(
                "content/redirects.yaml:{}: `elsewhere` is neither a path of the site starting with `/`, an http(s) URL, nor `gone`",
                at("/nowhere")
            ),
            format!(
                "content/redirects.yaml:6:1: `/loop-a` has two entries: content/redirects.yaml:{} also redirects it; keep one",
                at("/loop-a:")
            ),
        ]
    );
}

#[test]
fn a_link_to_an_old_path_is_reported_where_it_is_written() {
    let about = edited(
        "pages/about.yaml",
        ABOUT_META,
        "meta:\n  aliases: [/company]\n  title: About Us | Nordvale\n",
    );
    let site = edited(
        "site.yaml",
        "{ label: About Us, href: /about }",
        "{ label: About Us, href: /company/ }",
    );
    let (loaded, _) = load_files(&[("pages/about.yaml", &about), ("site.yaml", &site)]);
    assert_eq!(
        loaded.map(|_| ()).expect_err("fails"),
        vec![format!(
            "content/site.yaml:{}: link `/company/` leads to an old path that redirects to `/about`: link to `/about` instead",
            position(&site, "href: /company/")
        )]
    );
}

#[test]
fn a_translation_field_the_source_does_not_have_is_named_at_its_line() {
    let text = edited(
        "pages/about.et.yaml",
        "  eyebrow: Meist\n",
        "  eyebrow: Meist\n  titel: Meist\n",
    );
    assert_eq!(
        errors_with("pages/about.et.yaml", &text),
        [format!(
            "content/pages/about.et.yaml:{}: `titel` is not a field of the source file: a translation \
             holds only the source's words; remove it or add it to the source first",
            position(&text, "titel")
        )]
    );
}

#[test]
fn a_word_of_the_interface_left_out_of_a_translation_is_named_at_its_section() {
    let text = edited("site.et.yaml", "  open_menu: Ava menüü\n", "");
    assert_eq!(
        errors_with("site.et.yaml", &text),
        [format!(
            "content/site.et.yaml:{}: `ui.open_menu` is missing: words of the interface are \
             translated whole, or a reader meets the source's language; translate it",
            position(&text, "ui:")
        )]
    );
    // A page's own words may wait for their translation; addresses are not words at all.
    let about = edited("pages/about.et.yaml", "  eyebrow: Meist\n", "");
    let (loaded, _) = load_files(&[("pages/about.et.yaml", &about)]);
    assert!(loaded.is_ok(), "{:?}", loaded.err());
}

#[test]
fn a_translated_list_of_another_length_is_named_at_its_line() {
    let text = edited(
        "site.et.yaml",
        "    - { label: Kontakt }\n",
        "    - { label: Kontakt }\n    - { label: Veel }\n",
    );
    let errors = errors_with("site.et.yaml", &text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!(
            "content/site.et.yaml:{}: the source lists 5 items and the translation 6",
            position(&text, "links:")
        )),
        "{errors:?}"
    );
}

#[test]
fn a_language_tag_that_is_not_bcp_47_is_named_at_its_line() {
    let text = edited("site.yaml", "  - tag: et\n", "  - tag: Estonian\n");
    assert_eq!(
        errors_with("site.yaml", &text),
        [format!(
            "content/site.yaml:{}: `Estonian` is not a BCP 47 language tag: write a language (`et`), \
             optionally with a script or region (`pt-BR`, `zh-Hans`)",
            position(&text, "tag: Estonian")
        )]
    );
}

#[test]
fn a_translation_whose_source_was_renamed_or_whose_language_is_unknown_is_named() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("content");
    copy_dir(&repo().join("content"), &dir);
    let articles = dir.join("articles");
    // The author renamed the article and left its translation behind.
    std::fs::rename(
        articles.join("designing-event-driven-apis-that-scale.md"),
        articles.join("event-driven-apis.md"),
    )
    .expect("rename");
    std::fs::copy(
        dir.join("pages/about.et.yaml"),
        dir.join("pages/about.de.yaml"),
    )
    .expect("copy");
    let errors: Vec<String> = match Content::load(&dir, &repo().join("site/public")) {
        Ok(_) => panic!("a lost translation should not load"),
        Err(errors) => errors
            .0
            .iter()
            .map(|e| e.to_string().replace(&dir.display().to_string(), "content"))
            .collect(),
    };
    assert_eq!(
        errors,
        [
            "content/articles/designing-event-driven-apis-that-scale.et.md: translates \
             `articles/designing-event-driven-apis-that-scale.md`, which does not exist: a \
             renamed file takes its translations with it (rename this one too), or delete it",
            "content/pages/about.de.yaml: a translation into `de`, which is not in `languages` \
             of site.yaml: its other languages are et; add the language or delete the file",
        ]
    );
}

#[test]
fn a_translated_body_s_link_to_a_page_of_the_default_language_with_a_version_is_named() {
    let file = "articles/five-questions-to-ask-before-your-next-cloud-migration.et.md";
    // To the English contact page, whose Estonian version exists; to no page at all; and to
    // an article only in English, which is where an Estonian reader has to go for it.
    let text = edited(
        file,
        "[rääkige meile oma süsteemidest](/et/contact).",
        "[rääkige meile oma süsteemidest](/contact#form). [Vt ka](/et/nowhere), \
         [inglise keeles](/insights/kubernetes-cost-optimisation-in-practice).",
    );
    assert_eq!(
        errors_with(file, &text),
        [
            format!(
                "content/{file}:{}: link `/contact#form` leads to the `en` page, which has a \
                 version in `et`: link to `/et/contact#form`",
                position(&text, "[rääkige meile")
            ),
            format!(
                "content/{file}:{}: link `/et/nowhere` leads to no page",
                position(&text, "[Vt ka]")
            ),
        ]
    );
}

#[test]
fn two_pages_of_one_language_with_one_slug_are_named() {
    let file = "articles/designing-event-driven-apis-that-scale.et.md";
    let text = edited(
        file,
        "slug: skaleeruvate-sundmuspohiste-api-de-kujundamine",
        "slug: viis-kusimust-enne-jargmist-pilvemigratsiooni",
    );
    let errors = errors_with(file, &text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("slug")
            && errors[0].contains(
                "`/et/insights/viis-kusimust-enne-jargmist-pilvemigratsiooni` is also the path of"
            ),
        "{errors:?}"
    );
}

#[test]
fn estonian_dates_are_written_the_estonian_way() {
    let content = load_with(None).expect("the real content loads");
    let estonian = &content.translations[0];
    assert_eq!(estonian.settings.language, "et");
    let article = estonian
        .articles
        .iter()
        .find(|a| a.date == "2024-03-14" || a.date.starts_with("2024-"))
        .expect("an article of 2024");
    let (_, month, day) = sitegen::content::articles::parse_date(&article.date).expect("a date");
    let months = &estonian.settings.dates.months;
    assert_eq!(
        article.date_display,
        format!("{day}. {} 2024", months[month - 1])
    );
    assert!(months.iter().any(|m| m == "veebruar"));
}

#[test]
fn a_linked_articles_folder_is_read_as_if_it_were_there() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("content");
    copy_dir(&repo().join("content"), &dir);
    let public = repo().join("site/public");
    let slugs = |content: &Content| -> Vec<Vec<String>> {
        std::iter::once(content)
            .chain(&content.translations)
            .map(|c| c.articles.iter().map(|a| a.slug.clone()).collect())
            .collect()
    };
    let before = slugs(&Content::load(&dir, &public).expect("the real content is valid"));
    // The archive kept elsewhere and linked in, as a publication's may be.
    let archive = tmp.path().join("archive");
    std::fs::rename(dir.join("articles"), &archive).expect("move the articles");
    std::os::unix::fs::symlink(&archive, dir.join("articles")).expect("link them");
    std::fs::write(archive.join("notes.yaml"), "draft: true\n").expect("write");
    let errors = Content::load(&dir, &public)
        .expect_err("a YAML file in the linked folder is reported")
        .0
        .iter()
        .map(|e| e.to_string().replace(&dir.display().to_string(), "content"))
        .collect::<Vec<_>>();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with("content/articles/notes.yaml: unexpected content file"),
        "{errors:#?}"
    );
    std::fs::remove_file(archive.join("notes.yaml")).expect("remove");
    let linked = Content::load(&dir, &public).expect("valid through the link");
    assert!(!before[0].is_empty() && before.len() > 1, "{before:?}");
    assert_eq!(
        slugs(&linked),
        before,
        "every language's articles, as before"
    );
}

#[test]
fn opening_hours_in_a_card_s_own_words_or_a_template_without_its_placeholders_are_reported() {
    // The hours are stated once, in site.yaml; the phone card writes them where it says `{hours}`.
    let text = edited(
        "pages/contact.yaml",
        "\"{hours} (EET).\"",
        "Monday to Friday, 9:00 to 18:00 (EET).",
    );
    assert_eq!(
        errors_with("pages/contact.yaml", &text),
        [format!(
            "content/pages/contact.yaml:{}: `Monday to Friday, 9:00 to 18:00 (EET).` does not say when to call: write `{{hours}}` where the opening hours of site.yaml's `contact.opening_hours` go (`{{hours}} (EET)`)",
            position(&text, "description: Monday to Friday")
        )]
    );
    let text = edited(
        "site.yaml",
        "time: \"{hour}:{minute}\"",
        "time: \"{hour}h\"",
    );
    assert_eq!(
        errors_with("site.yaml", &text),
        [format!(
            "content/site.yaml:{}: `{{hour}}h` has no `{{minute}}`: a template of {{hour}}, {{minute}} writes each",
            position(&text, "time: \"{hour}h\"")
        )]
    );
}

#[test]
fn an_office_address_country_code_that_is_not_iso_3166_is_reported_at_its_field() {
    let text = edited("site.yaml", "country_code: EE", "country_code: Estonia");
    assert_eq!(
        errors_with("site.yaml", &text),
        [format!(
            "content/site.yaml:{}: `Estonia` is not a country code: write its two capital letters of ISO 3166-1 (`EE`)",
            position(&text, "country_code: Estonia")
        )]
    );
}

#[test]
fn a_phone_prefix_that_repeats_the_country_code_or_is_no_dialling_code_is_reported() {
    // The home form's dialling code is the language's country_code unless phone_prefix differs.
    let text = edited(
        "site.yaml",
        "country_code: \"+372\"\n",
        "country_code: \"+372\"\n    phone_prefix: \"+372\"\n",
    );
    assert_eq!(
        errors_with("site.yaml", &text),
        [format!(
            "content/site.yaml:{}: is the language's `country_code` already, which the phone field shows without it: remove it",
            position(&text, "phone_prefix: \"+372\"")
        )]
    );
    let text = edited("site.yaml", "phone_prefix: \"+1\"", "phone_prefix: \"+0\"");
    assert_eq!(
        errors_with("site.yaml", &text),
        [format!(
            "content/site.yaml:{}: `+0` is not a dialling code of countries.yaml: name one it lists (`+372`)",
            position(&text, "phone_prefix: \"+0\"")
        )]
    );
}

#[test]
fn a_translation_s_phone_card_that_states_the_hours_in_its_own_words_is_reported() {
    let text = edited(
        "pages/contact.et.yaml",
        "\"{hours} (Eesti aja järgi).\"",
        "Esmaspäevast reedeni kell 9.00–18.00.",
    );
    assert_eq!(
        errors_with("pages/contact.et.yaml", &text),
        [format!(
            "content/pages/contact.et.yaml:{}: `Esmaspäevast reedeni kell 9.00–18.00.` does not say when to call: write `{{hours}}` where the opening hours of site.yaml's `contact.opening_hours` go (`{{hours}} (EET)`)",
            position(&text, "description: Esmaspäevast")
        )]
    );
}
