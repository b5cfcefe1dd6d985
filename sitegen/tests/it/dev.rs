//! `sitegen dev` refuses a port in use with one clear line, before starting anything. (The dev
//! server itself is tested in a browser: site/tests-dev/.)

use std::net::TcpListener;
use std::process::Command;

use crate::common;

#[test]
fn a_port_in_use_gives_one_clear_line() {
    let taken = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = Command::new(env!("CARGO_BIN_EXE_sitegen"))
        .current_dir(root)
        .args(["dev", "--port", &port.to_string()])
        .output()
        .expect("run sitegen dev");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "error: port {port} on 127.0.0.1 is already in use: stop what uses it, or start `sitegen dev` with --port N"
        )
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `sitegen dev` hands its pages the content with its photos encoded and its cards drawn, and
/// lists every file they name for the dev server to serve under `/img/`.
fn assert_every_picture_is_served(prepared: &sitegen::dev::Prepared) {
    let files: std::collections::BTreeMap<&str, &std::path::Path> = prepared
        .files
        .iter()
        .map(|(url, path)| (url.as_str(), path.as_path()))
        .collect();
    let content = &prepared.content;
    assert!(!content.images.is_empty(), "the site shows no photo");
    let mut urls: Vec<&str> = Vec::new();
    for picture in content.images.values() {
        urls.push(&picture.src);
        for srcset in picture
            .sources
            .iter()
            .map(|s| s.srcset.as_str())
            .chain([picture.srcset.as_str()])
        {
            urls.extend(srcset.split(", ").filter_map(|c| c.split(' ').next()));
        }
    }
    assert_eq!(content.cards.len(), content.routes.len());
    urls.extend(content.cards.values().map(|card| card.src.as_str()));
    for url in urls {
        let file = files
            .get(url)
            .unwrap_or_else(|| panic!("{url} is not served"));
        assert!(file.is_file(), "{url}: {} is missing", file.display());
    }
}

/// The pictures every load names are served (see [`assert_every_picture_is_served`]), and a
/// save costs what it changed: with the memo, an article whose file is as it was is the one
/// parsed before (its body shared, not parsed again), while an edited, added or removed article
/// shows as it now is; the cards follow the words.
#[test]
fn the_dev_content_is_served_whole_and_a_second_load_parses_only_what_changed() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let scratch = tempfile::tempdir().expect("tempdir");
    let content = scratch.path().join("content");
    common::copy_tree(&root.join("content"), &content, &[]).expect("a copy of the content");
    let cache = sitegen::cache::Cache::open(Some(&scratch.path().join("cache"))).expect("cache");
    let settings = sitegen::images::Settings {
        avif_speed: 10,
        ..sitegen::images::Settings::default()
    };
    let public = root.join("site/public");
    let mut memo = sitegen::dev::Memo::default();
    // A load names the cards its memo does not know without drawing them; `sitegen dev`
    // draws them after, as here, and lists them for the dev server.
    let load = |memo: &mut sitegen::dev::Memo| {
        let mut prepared = sitegen::dev::prepare(&content, &public, &cache, &settings, memo)
            .expect("the cache works")
            .expect("the content is valid");
        let drawn = sitegen::dev::draw_cards(&cache, &prepared.pending, &memo.cards)
            .expect("the cards are drawn");
        prepared.files.extend(drawn);
        assert_every_picture_is_served(&prepared);
        let pending: std::collections::BTreeSet<String> = prepared
            .pending
            .iter()
            .map(|card| card.file.clone())
            .collect();
        (prepared.content, pending)
    };
    let (first, pending) = load(&mut memo);
    assert_eq!(memo.articles.len(), first.articles.len());
    let shared = first
        .routes
        .iter()
        .filter(|route| route.share_image.is_some())
        .count();
    assert_eq!(pending.len(), first.routes.len() - shared);

    let articles = content.join("articles");
    let edited = "dashboards-nobody-opens-and-how-to-fix-them";
    let path = articles.join(format!("{edited}.md"));
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(
        &path,
        text.replace(
            "## Start from the decision\n",
            "## Start from the decision\n\nA sentence saved since.\n",
        )
        .replace(
            "title: Dashboards nobody opens",
            "title: Dashboards nobody reads",
        ),
    )
    .expect("edit");
    let removed = &first.articles.last().expect("an article").slug;
    std::fs::remove_file(articles.join(format!("{removed}.md"))).expect("remove");
    std::fs::write(
        articles.join("saved-since.md"),
        text.replace(
            "title: Dashboards nobody opens, and how to fix them",
            "title: An article saved since",
        ),
    )
    .expect("add");

    let (second, pending) = load(&mut memo);
    let by_slug = |content: &sitegen::content::Content| -> std::collections::HashMap<String, sitegen::content::articles::Article> {
        content.articles.iter().map(|a| (a.slug.clone(), a.clone())).collect()
    };
    let (before, after) = (by_slug(&first), by_slug(&second));
    assert!(after[edited].html.contains("A sentence saved since."));
    assert_eq!(
        after[edited].title,
        "Dashboards nobody reads, and how to fix them"
    );
    assert!(!std::sync::Arc::ptr_eq(
        &before[edited].html,
        &after[edited].html
    ));
    assert!(!after.contains_key(removed.as_str()));
    assert_eq!(after["saved-since"].title, "An article saved since");
    for (slug, article) in &after {
        if slug != edited && slug != "saved-since" {
            assert!(
                std::sync::Arc::ptr_eq(&before[slug].html, &article.html),
                "{slug} was parsed again though its file did not change"
            );
        }
    }
    assert_eq!(memo.articles.len(), second.articles.len());
    let card = |content: &sitegen::content::Content, slug: &str| {
        let path = format!("/insights/{slug}");
        content.cards[&path].clone()
    };
    assert_eq!(
        card(&second, edited).alt,
        "Dashboards nobody reads, and how to fix them"
    );
    assert_ne!(card(&first, edited).src, card(&second, edited).src);
    let unchanged = &second.articles[0].slug;
    assert_eq!(card(&first, unchanged), card(&second, unchanged));
    // Only the cards whose words changed are drawn again: the edited and the added article's.
    let file = |slug: &str| card(&second, slug).src.trim_start_matches('/').to_owned();
    assert_eq!(
        pending,
        [file(edited), file("saved-since")].into_iter().collect()
    );
}
