//! `_headers` round trip: the site-wide files written as the build writes them, from the
//! cache rules of `site.yaml`, the contact endpoint, the other languages and the files of
//! `site/public`, and the `_headers` written read back by the reader `sitegen serve` and
//! `sitegen deploy` use: every kind of file gets the `Cache-Control` it was written with,
//! from exactly one rule. A build that cannot write what it was given fails instead.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sitegen::content::i18n::is_language_tag;
use sitegen::content::settings::CacheRules;
use sitegen::headers::HeaderRules;
use sitegen::output_dir::CONFIG_FILES;
use sitegen::outputs::{HASHED_DIRS, SITE_WIDE_FILES, SitemapEntry, write_site_files};

#[derive(Debug, Arbitrary)]
struct Input {
    hashed: String,
    revalidated: String,
    contact_endpoint: String,
    languages: Vec<String>,
    /// The names under `site/public`, each a file or (true) a folder holding one.
    public: Vec<(String, bool)>,
}

fuzz_target!(|input: Input| {
    let temp = tempfile::tempdir().expect("a folder");
    let (out, public) = (temp.path().join("dist"), temp.path().join("public"));
    std::fs::create_dir_all(&out).expect("dist");
    std::fs::create_dir_all(&public).expect("public");
    let mut files = Vec::new();
    for (name, folder) in input.public.iter().take(8) {
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
            continue;
        }
        let path = public.join(name);
        let made = if *folder {
            std::fs::create_dir(&path).and_then(|()| std::fs::write(path.join("a.txt"), "a"))
        } else {
            std::fs::write(&path, "a")
        };
        if made.is_ok() {
            files.push((name.clone(), *folder));
        }
    }
    // Each language once, as `site.yaml`'s check leaves them before a build.
    let mut tags: Vec<&String> = input
        .languages
        .iter()
        .take(4)
        .filter(|tag| is_language_tag(tag) && tag.as_str() != "en")
        .collect();
    tags.sort();
    tags.dedup();
    let prefixes: Vec<String> = tags
        .into_iter()
        .map(|tag| form_contract::language_prefix("en", tag))
        .collect();
    let prefixes: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    let cache = CacheRules {
        hashed: input.hashed,
        revalidated: input.revalidated,
    };
    let routes = [SitemapEntry::listed("/"), SitemapEntry::listed("/about")];
    let written = write_site_files(
        &out,
        &public,
        "https://example.com",
        &input.contact_endpoint,
        &routes,
        &prefixes,
        &cache,
    );
    if written.is_err() {
        return;
    }
    let text = std::fs::read_to_string(out.join("_headers")).expect("_headers written");
    let rules = HeaderRules::parse(&text).unwrap_or_else(|e| panic!("{e:#}\n{text}"));
    let cache_control = |path: &str| rules.value(&[path], &http::header::CACHE_CONTROL);
    let (hashed, revalidated) = (cache.hashed.trim(), cache.revalidated.trim());
    for dir in HASHED_DIRS {
        let path = format!("/{dir}/a.js");
        assert_eq!(
            cache_control(&path).as_deref(),
            Some(hashed),
            "{path}\n{text}"
        );
    }
    let mut kept = vec!["/".to_owned(), "/about/".to_owned(), "/404.html".to_owned()];
    kept.extend(prefixes.iter().map(|p| format!("{p}/404.html")));
    for (name, folder) in &files {
        // Files revalidated_paths leaves to other rules (or to none: a config file).
        let skipped = HASHED_DIRS.contains(&name.as_str())
            || CONFIG_FILES.contains(&name.as_str())
            || SITE_WIDE_FILES.contains(&name.as_str())
            || name.ends_with(".html")
            || name.ends_with(".br")
            || name.ends_with(".gz");
        if !skipped {
            kept.push(if *folder {
                format!("/{name}/a.txt")
            } else {
                format!("/{name}")
            });
        }
    }
    for path in &kept {
        assert_eq!(
            cache_control(path).as_deref(),
            Some(revalidated),
            "{path}\n{text}"
        );
    }
});
