//! `sitegen deploy` against a real S3-compatible server (moto, started per test on
//! loopback): what lands in the bucket, what a second deploy sends, deletions and their
//! guard, dry runs, a store that dies mid-deploy, and the one-line errors.

use crate::support;

use std::io::Read;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sitegen::content::settings::CacheRules;
use sitegen::deploy::credentials::Found;
use sitegen::deploy::s3::Retry;
use sitegen::deploy::{DeployOptions, Summary, deploy};
use sitegen::outputs::{SitemapEntry, write_site_files};
use support::kvs::{self, FakeKvs};
use support::moto::{Moto, between};
use support::proxy::DyingProxy;

const BUCKET: &str = "www-example";

/// A page over the compression threshold, so the build writes its `.gz` and `.br`.
fn page(title: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{title}</title>\
         <link rel=stylesheet href=/assets/app-3f2a.css></head><body><h1>{title}</h1>{}</body></html>",
        "<p>Cloud, data and security work that ships.</p>".repeat(40)
    )
}

fn write(dir: &Path, file: &str, bytes: &[u8]) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// A build as `sitegen build` leaves it: pages, hashed assets, a picture, the site-wide
/// files and `_headers` from sitegen's own writer, and the precompressed variants.
fn build(dir: &Path, articles: &[&str]) {
    let _ = std::fs::remove_dir_all(dir);
    write(dir, "index.html", page("Home").as_bytes());
    write(dir, "about/index.html", page("About").as_bytes());
    write(dir, "404.html", page("Not found").as_bytes());
    for slug in articles {
        write(
            dir,
            &format!("insights/{slug}/index.html"),
            page(slug).as_bytes(),
        );
    }
    write(
        dir,
        "assets/app-3f2a.css",
        "body{margin:0}".repeat(100).as_bytes(),
    );
    write(dir, "assets/app-9c1d.js", b"console.log(1)");
    write(
        dir,
        "images/team.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    );
    write(dir, "feed.xml", b"<feed/>");
    let mut routes = vec![SitemapEntry::listed("/"), SitemapEntry::listed("/about")];
    routes.extend(
        articles
            .iter()
            .map(|s| SitemapEntry::listed(format!("/insights/{s}"))),
    );
    write_site_files(
        dir,
        dir,
        "https://www.example.com",
        "",
        &routes,
        &[],
        &CacheRules::default(),
    )
    .expect("site files");
    sitegen::compress::compress_dir(dir).expect("compressed");
}

/// Writes `file` anew as a build would: with fresh compressed variants.
fn rewrite(dir: &Path, file: &str, bytes: &[u8]) {
    write(dir, file, bytes);
    for suffix in [".gz", ".br"] {
        let _ = std::fs::remove_file(dir.join(format!("{file}{suffix}")));
    }
    sitegen::compress::compress_dir(dir).expect("compressed");
}

fn options(dir: &Path, endpoint: &str, target: &str) -> DeployOptions {
    DeployOptions {
        endpoint: Some(endpoint.to_owned()),
        concurrency: 4,
        retry: Retry {
            attempts: 2,
            first_wait: Duration::from_millis(20),
        },
        ..DeployOptions::new(dir.to_owned(), target.parse().expect("a target"))
    }
}

fn found(moto: &Moto) -> Found {
    Found {
        credentials: moto.credentials.clone(),
        region: "us-east-1".into(),
    }
}

fn run(moto: &Moto, options: &DeployOptions) -> Summary {
    deploy(options, &found(moto)).unwrap_or_else(|e| panic!("deploy failed: {e}"))
}

/// Runs the real binary with the store's credentials in the environment.
fn cli(moto: &Moto, args: &[&str], secret: Option<&str>) -> std::process::Output {
    cli_with(moto, args, secret, &[])
}

/// [`cli`] with more of the environment: `envs`.
fn cli_with(
    moto: &Moto,
    args: &[&str],
    secret: Option<&str>,
    envs: &[(&str, &str)],
) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sitegen"))
        .envs(envs.iter().copied())
        .arg("deploy")
        .args(args)
        .env("AWS_ACCESS_KEY_ID", &moto.credentials.key)
        .env(
            "AWS_SECRET_ACCESS_KEY",
            secret.unwrap_or(&moto.credentials.secret),
        )
        .env("AWS_ENDPOINT_URL", &moto.endpoint)
        .env("AWS_REGION", "us-east-1")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_SESSION_TOKEN")
        .output()
        .expect("sitegen runs")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("valid gzip");
    out
}

/// Every file the host serves: not the variants, not the config files.
fn served_files(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .expect("inside")
                .to_string_lossy()
                .into_owned()
        })
        .filter(|f| !f.ends_with(".gz") && !f.ends_with(".br") && !f.starts_with('_'))
        .collect();
    files.sort();
    files
}

#[test]
fn a_first_deploy_publishes_every_file_decoded_byte_for_byte_with_its_metadata() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["first", "second"]);

    let summary = run(
        &moto,
        &options(dir.path(), &moto.endpoint, "s3://www-example/site"),
    );

    let files = served_files(dir.path());
    assert_eq!(summary.uploaded, files.len());
    assert_eq!((summary.unchanged, summary.deleted), (0, 0));
    let keys: Vec<String> = moto.list(BUCKET).into_keys().collect();
    let expected: Vec<String> = files.iter().map(|f| format!("site/{f}")).collect();
    assert_eq!(keys, expected, "no .br/.gz side files, no _headers");
    for file in &files {
        let object = moto.get(BUCKET, &format!("site/{file}"));
        let original = std::fs::read(dir.path().join(file)).expect("read");
        let body = match object.content_encoding.as_deref() {
            Some("gzip") => gunzip(&object.body),
            None => object.body.clone(),
            Some(other) => panic!("{file}: unexpected Content-Encoding {other}"),
        };
        assert!(
            body == original,
            "{file}: the decoded object differs from the build"
        );
        let compressed = dir.path().join(format!("{file}.gz")).is_file();
        assert_eq!(object.content_encoding.is_some(), compressed, "{file}");
        let cache = object.cache_control.unwrap_or_default();
        if file.starts_with("assets/") {
            assert_eq!(cache, "public, max-age=31536000, immutable", "{file}");
        } else {
            assert_eq!(cache, "public, max-age=0, must-revalidate", "{file}");
        }
        let content_type = object.content_type.unwrap_or_default();
        let expected_type = match file.rsplit('.').next() {
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("svg") => "image/svg+xml; charset=utf-8",
            Some("xml") => "text/xml; charset=utf-8",
            Some("txt") => "text/plain; charset=utf-8",
            _ => "application/octet-stream",
        };
        assert_eq!(content_type, expected_type, "{file}");
    }
}

#[test]
fn a_second_deploy_of_the_same_build_uploads_nothing_in_one_request() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["first"]);
    let options = options(dir.path(), &moto.endpoint, "s3://www-example");
    let first = run(&moto, &options);
    let before = moto.list(BUCKET);

    let second = run(&moto, &options);

    assert_eq!(second.uploaded, 0);
    assert_eq!(second.unchanged, first.uploaded);
    assert_eq!((second.deleted, second.bytes), (0, 0));
    assert_eq!(second.requests, 1, "one listing, no request per object");
    assert_eq!(moto.list(BUCKET), before);
}

#[test]
fn an_edited_article_uploads_only_the_objects_whose_bytes_changed() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["first", "second"]);
    let options = options(dir.path(), &moto.endpoint, "s3://www-example");
    run(&moto, &options);
    let before = moto.list(BUCKET);

    let edited = page("second, revised");
    rewrite(dir.path(), "insights/second/index.html", edited.as_bytes());
    let summary = run(&moto, &options);

    assert_eq!(summary.uploaded, 1);
    assert_eq!(summary.deleted, 0);
    let after = moto.list(BUCKET);
    let changed: Vec<&String> = after
        .iter()
        .filter(|(k, etag)| before.get(*k) != Some(etag))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(changed, ["insights/second/index.html"]);
    let object = moto.get(BUCKET, "insights/second/index.html");
    assert_eq!(gunzip(&object.body), edited.as_bytes());
}

#[test]
fn a_page_marked_gone_is_deleted_after_the_uploads() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["first", "second"]);
    run(
        &moto,
        &options(dir.path(), &moto.endpoint, "s3://www-example"),
    );

    build(dir.path(), &["first"]);
    write(
        dir.path(),
        "_redirects",
        b"/insights/second /404.html 410\n/insights/second/ /404.html 410\n",
    );
    let summary = run(
        &moto,
        &options(dir.path(), &moto.endpoint, "s3://www-example"),
    );

    assert_eq!(summary.deleted, 1);
    // The sitemap no longer lists the page, so it is uploaded again.
    assert_eq!(summary.uploaded, 1);
    let keys: Vec<String> = moto.list(BUCKET).into_keys().collect();
    assert!(!keys.contains(&"insights/second/index.html".to_owned()));
    assert!(keys.contains(&"insights/first/index.html".to_owned()));
    assert_eq!(
        keys,
        served_files(dir.path()),
        "the bucket holds exactly the build"
    );
}

#[test]
fn a_slug_changed_without_an_alias_stops_the_deploy_and_with_one_the_old_path_redirects() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["edge-ai", "old-slug"]);
    run(
        &moto,
        &options(dir.path(), &moto.endpoint, "s3://www-example"),
    );
    let before = moto.list(BUCKET);

    // The article's slug changed, and nothing says where its old path went.
    build(dir.path(), &["new-slug", "edge-ai"]);
    let args = [dir.path().to_str().expect("UTF-8"), "s3://www-example"];
    let output = cli(&moto, &args, None);
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim_end(),
        "error: the build no longer has these pages of s3://www-example/, and no redirect \
         answers them: nothing was uploaded or deleted.\n  /insights/old-slug/\nKeep each one \
         working: add its path to the `aliases` of the page that replaces it, or mark it `gone` \
         in content/redirects.yaml; or, to let them go unannounced, run again with \
         --allow-removals"
    );
    assert_eq!(
        moto.list(BUCKET),
        before,
        "nothing uploaded, nothing deleted"
    );

    // With the alias, the build has the page at the old path and its rule in `_redirects`.
    write(
        dir.path(),
        "_redirects",
        b"/insights/old-slug /insights/new-slug/ 301\n/insights/old-slug/ /insights/new-slug/ 301\n",
    );
    write(
        dir.path(),
        "insights/old-slug/index.html",
        b"<!doctype html><meta http-equiv=refresh content=\"0; url=/insights/new-slug/\">",
    );
    let output = cli(&moto, &args, None);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let moved = moto.get(BUCKET, "insights/old-slug/index.html");
    assert_eq!(
        moved.website_redirect_location.as_deref(),
        Some("/insights/new-slug/")
    );
    let page = moto.get(BUCKET, "insights/new-slug/index.html");
    assert_eq!(page.website_redirect_location, None);
    assert_eq!(
        moto.list(BUCKET).into_keys().collect::<Vec<_>>(),
        served_files(dir.path())
    );
}

#[test]
fn more_deletions_than_max_deletes_change_nothing_and_fail() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["a", "b", "c"]);
    run(
        &moto,
        &options(dir.path(), &moto.endpoint, "s3://www-example"),
    );
    let before = moto.list(BUCKET);

    build(dir.path(), &[]);
    write(
        dir.path(),
        "about/index.html",
        page("About, revised").as_bytes(),
    );
    let output = cli(
        &moto,
        &[
            dir.path().to_str().expect("UTF-8"),
            "s3://www-example",
            "--max-deletes",
            "2",
            "--allow-removals",
        ],
        None,
    );

    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim_end(),
        "error: the build no longer has 3 objects of s3://www-example/, more than \
         --max-deletes 2: nothing was uploaded or deleted (first: insights/a/index.html); if \
         that is right, run again with --max-deletes 3"
    );
    assert_eq!(
        moto.list(BUCKET),
        before,
        "nothing uploaded, nothing deleted"
    );

    // A dry run still lists every deletion, then fails the same way.
    let output = cli(
        &moto,
        &[
            dir.path().to_str().expect("UTF-8"),
            "s3://www-example",
            "--max-deletes",
            "2",
            "--dry-run",
            "--allow-removals",
        ],
        None,
    );
    assert!(!output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.matches("would delete insights/").count(),
        3,
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("more than --max-deletes 2"));
}

#[test]
fn a_dry_run_lists_every_change_with_its_reason_and_changes_nothing() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["first", "second"]);
    run(
        &moto,
        &options(dir.path(), &moto.endpoint, "s3://www-example"),
    );
    let before = moto.list(BUCKET);

    build(dir.path(), &["first", "third"]);
    let output = cli(
        &moto,
        &[
            dir.path().to_str().expect("UTF-8"),
            "s3://www-example",
            "--dry-run",
            "--allow-removals",
        ],
        None,
    );

    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(
        lines[0].starts_with("would upload insights/third/index.html (new, ")
            && lines[0].ends_with(
                " B, text/html; charset=utf-8, gzip, public, max-age=0, must-revalidate)"
            ),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("would upload sitemap.xml (changed, "),
        "{stdout}"
    );
    assert_eq!(
        lines[2],
        "would delete insights/second/index.html (not in the build)"
    );
    assert!(
        lines[3].starts_with("dry run: would upload 2, "),
        "{stdout}"
    );
    assert_eq!(moto.list(BUCKET), before);
}

#[test]
fn a_store_that_dies_mid_deploy_fails_naming_the_object_and_a_rerun_finishes() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    let slugs: Vec<String> = (0..40).map(|i| format!("article-{i:02}")).collect();
    let slugs: Vec<&str> = slugs.iter().map(String::as_str).collect();
    build(dir.path(), &slugs);
    let upstream = moto.endpoint.trim_start_matches("http://").to_owned();
    // About a third of the uploads' bytes get through before the store goes away.
    let proxy = DyingProxy::start(&upstream, 12_000);
    let mut opts = options(dir.path(), &proxy.endpoint, "s3://www-example");
    opts.concurrency = 1;

    let err = deploy(&opts, &found(&moto)).expect_err("the store died");

    assert!(proxy.is_dead());
    let message = err.to_string();
    assert!(message.starts_with("uploading "), "{message}");
    assert!(
        message.contains(" to s3://www-example/: no answer from the store at "),
        "{message}"
    );
    assert!(
        message.ends_with("run the deploy again to finish"),
        "{message}"
    );
    let partial = moto.list(BUCKET);
    let files = served_files(dir.path());
    assert!(
        partial.contains_key("about/index.html"),
        "the store died among the pages"
    );
    assert!(partial.len() < files.len());
    for asset in files
        .iter()
        .filter(|f| !f.ends_with(".html") && f.as_str() != "feed.xml")
    {
        if asset != "sitemap.xml" && asset != "robots.txt" {
            assert!(
                partial.contains_key(asset),
                "{asset}: every asset is up before a page"
            );
        }
    }
    for site_wide in ["sitemap.xml", "robots.txt", "feed.xml"] {
        assert!(
            !partial.contains_key(site_wide),
            "{site_wide} goes up after every page"
        );
    }

    let rerun = run(
        &moto,
        &options(dir.path(), &moto.endpoint, "s3://www-example"),
    );

    assert_eq!(
        rerun.uploaded + rerun.unchanged,
        served_files(dir.path()).len()
    );
    assert!(
        rerun.unchanged >= partial.len() - 1,
        "what was uploaded is not sent again"
    );
    let keys: Vec<String> = moto.list(BUCKET).into_keys().collect();
    assert_eq!(keys, served_files(dir.path()));
}

#[test]
fn wrong_credentials_and_an_unknown_bucket_give_one_line_errors() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &[]);
    let path = dir.path().to_str().expect("UTF-8");

    let output = cli(&moto, &[path, "s3://www-example"], Some("not-the-secret"));
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "error: listing s3://www-example/: the store answered 403 SignatureDoesNotMatch: "
        ),
        "{stderr}"
    );

    let output = cli(&moto, &[path, "s3://no-such-bucket"], None);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim_end(),
        "error: listing s3://no-such-bucket/: the store answered 404 NoSuchBucket: The \
         specified bucket does not exist"
    );
    assert!(moto.list(BUCKET).is_empty());
}

#[test]
fn invalidate_asks_cloudfront_for_exactly_the_changed_paths() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let created = moto.cloudfront(
        "POST",
        "/2020-05-31/distribution",
        "<DistributionConfig xmlns=\"http://cloudfront.amazonaws.com/doc/2020-05-31/\">\
         <CallerReference>site</CallerReference><Origins><Quantity>1</Quantity><Items><Origin>\
         <Id>site</Id><DomainName>www-example.s3.amazonaws.com</DomainName><S3OriginConfig>\
         <OriginAccessIdentity></OriginAccessIdentity></S3OriginConfig></Origin></Items>\
         </Origins><DefaultCacheBehavior><TargetOriginId>site</TargetOriginId>\
         <ViewerProtocolPolicy>redirect-to-https</ViewerProtocolPolicy></DefaultCacheBehavior>\
         <Comment>site</Comment><Enabled>true</Enabled></DistributionConfig>",
    );
    let id = between(&created, "Id");
    let dir = tempfile::tempdir().expect("temp dir");
    build(dir.path(), &["first"]);
    let mut opts = options(dir.path(), &moto.endpoint, "s3://www-example/site");
    run(&moto, &opts);

    rewrite(
        dir.path(),
        "about/index.html",
        page("About, revised").as_bytes(),
    );
    opts.invalidate = Some(sitegen::deploy::cloudfront::Distribution {
        id: id.clone(),
        endpoint: moto.endpoint.clone(),
    });
    let summary = run(&moto, &opts);

    assert_eq!(summary.invalidated, ["/about/", "/about/index.html"]);
    // What moto's CloudFront recorded (its state, read unsigned from its own API).
    let state = moto.state();
    let invalidations = state["cloudfront"]["Invalidation"]
        .as_array()
        .expect("invalidations");
    assert_eq!(invalidations.len(), 1, "{state}");
    let paths = &invalidations[0]["paths"];
    assert_eq!(paths, &serde_json::json!(["/about/", "/about/index.html"]));
}

/// A preview deploy writes only under `previews/pr-7/`; a deploy of the site afterwards leaves
/// it alone (neither deletes it nor counts its pages as dropped); `--list-previews` shows it and
/// `--remove-preview` removes exactly it.
#[test]
fn a_preview_lives_under_its_prefix_beside_the_site_and_is_removed_whole() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let site = tempfile::tempdir().expect("temp dir");
    build(site.path(), &["first"]);
    run(
        &moto,
        &options(site.path(), &moto.endpoint, "s3://www-example"),
    );
    let site_keys = moto.list(BUCKET);

    let preview = tempfile::tempdir().expect("temp dir");
    build(preview.path(), &["draft-article"]);
    write(
        preview.path(),
        "_redirects",
        b"/old-pricing /about/ 301\n/offers/2023 /404.html 410\n",
    );
    let content = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        content.path().join("site.yaml"),
        format!(
            "preview_domain: preview.example.com\npreview_redirects_store: {}\n",
            kvs::ARN
        ),
    )
    .expect("site.yaml");
    let store = FakeKvs::start();
    store
        .store()
        .keys
        .insert("pr-8/old".into(), "301 /about/".into());
    let store_env = [(
        "AWS_ENDPOINT_URL_CLOUDFRONT_KEYVALUESTORE",
        store.endpoint.as_str(),
    )];
    let dir = preview.path().to_str().expect("utf-8");
    let content_dir = content.path().to_str().expect("utf-8");
    let out = cli_with(
        &moto,
        &[
            dir,
            "s3://www-example",
            "--preview",
            "pr-7",
            "--content",
            content_dir,
        ],
        None,
        &store_env,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("preview pr-7: https://pr-7.preview.example.com/"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let after_preview = moto.list(BUCKET);
    let added: Vec<&String> = after_preview
        .keys()
        .filter(|key| !site_keys.contains_key(*key))
        .collect();
    assert!(!added.is_empty());
    assert!(
        added.iter().all(|key| key.starts_with("previews/pr-7/")),
        "{added:?}"
    );
    assert!(after_preview.contains_key("previews/pr-7/insights/draft-article/index.html"));
    let keys = |store: &FakeKvs| store.store().keys.clone().into_iter().collect::<Vec<_>>();
    let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    assert_eq!(
        keys(&store),
        [
            pair("pr-7/offers/2023", "410"),
            pair("pr-7/old-pricing", "301 /about/"),
            pair("pr-8/old", "301 /about/"),
        ],
        "the preview's own redirects are in the store, beside another preview's"
    );
    for (key, etag) in &site_keys {
        assert_eq!(after_preview.get(key), Some(etag), "{key} is untouched");
    }

    // The site again, without the preview's article: nothing of the preview goes.
    let again = run(
        &moto,
        &options(site.path(), &moto.endpoint, "s3://www-example"),
    );
    assert_eq!((again.uploaded, again.deleted), (0, 0));
    assert_eq!(moto.list(BUCKET), after_preview);

    let listed = cli(&moto, &["s3://www-example", "--list-previews"], None);
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.starts_with("pr-7  "), "{listed}");
    assert!(
        listed.contains(" s ago (") || listed.contains(" min ago ("),
        "{listed}"
    );

    let removed = cli_with(
        &moto,
        &[
            "s3://www-example",
            "--remove-preview",
            "pr-7",
            "--content",
            content_dir,
        ],
        None,
        &store_env,
    );
    assert!(
        removed.status.success(),
        "{}",
        String::from_utf8_lossy(&removed.stderr)
    );
    assert_eq!(moto.list(BUCKET), site_keys);
    assert_eq!(keys(&store), [pair("pr-8/old", "301 /about/")]);
}
