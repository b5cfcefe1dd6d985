//! `sitegen dev` refuses a port in use with one clear line, before starting anything. (The dev
//! server itself is tested in a browser: site/tests-dev/.)

use std::net::TcpListener;
use std::process::Command;

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
#[test]
fn the_dev_content_names_pictures_the_dev_server_can_serve() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let cache_dir = tempfile::tempdir().expect("tempdir");
    let cache = sitegen::cache::Cache::open(Some(cache_dir.path())).expect("cache");
    // Fast settings: the test checks what is served, not how small.
    let settings = sitegen::images::Settings {
        avif_speed: 10,
        ..sitegen::images::Settings::default()
    };
    let prepared = sitegen::dev::prepare(
        &root.join("content"),
        &root.join("site/public"),
        &cache,
        &settings,
    )
    .expect("the cache works")
    .expect("the content is valid");
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
