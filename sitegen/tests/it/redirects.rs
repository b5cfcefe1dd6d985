//! Moved pages never break: from one content fixture (an alias, `redirects.yaml` with a move,
//! another site and a page gone on purpose, then an article whose slug changes) the real
//! build writes `_redirects`, the pages at the old paths and the CloudFront Function;
//! `sitegen serve` answers 301 and 410 exactly as `_redirects` says, the CloudFront Function
//! under Node answers the same table, and `sitegen deploy` to moto's S3 refuses to drop the
//! article's old page until an alias covers it, then writes it with its redirect location.

use crate::common;
use crate::support;

use std::path::Path;
use std::process::Command;

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use sitegen::build::{BuildOptions, build};
use sitegen::deploy::credentials::Found;
use sitegen::deploy::{DeployOptions, deploy};
use sitegen::redirects::{CLOUDFRONT_FUNCTION_FILE, PreviewHosts, REDIRECTS_FILE, Rules};
use support::moto::Moto;
use tower::ServiceExt;

const OLD: &str = "dashboards-nobody-opens-and-how-to-fix-them";
const NEW: &str = "dashboards-people-open";
const BUCKET: &str = "www-example";

const REDIRECTS_YAML: &str = "\
/offers/2023: gone
/partners: https://partners.example.com/
/old-services: /services/cloud-services/
";

/// Builds the copy into `out`; returns the pages of the previous output dropped unannounced.
fn built(copy: &common::Copy, out: &Path) -> Vec<String> {
    let mut options = BuildOptions::new(copy.content.clone(), copy.site.clone(), out.to_owned());
    options.quiet = true;
    options.cache_dir = Some(copy.dir.path().join("cache"));
    options.contact_endpoint = Some("http://127.0.0.1:9".into());
    match build(&options) {
        Ok(built) => built.dropped_pages,
        Err(err) => panic!("the build failed: {err:#}"),
    }
}

fn deploy_options(out: &Path, moto: &Moto) -> DeployOptions {
    DeployOptions {
        endpoint: Some(moto.endpoint.clone()),
        concurrency: 4,
        ..DeployOptions::new(
            out.to_owned(),
            format!("s3://{BUCKET}").parse().expect("a target"),
        )
    }
}

fn read(out: &Path, file: &str) -> String {
    std::fs::read_to_string(out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn one_table_answers_on_every_host_and_a_moved_article_is_never_dropped_silently() {
    let copy = common::Copy::new().expect("a copy of the site");
    common::without_photos(&copy.content).expect("illustrations");
    common::replace(
        &copy.content.join("pages/about.yaml"),
        "meta:",
        "meta:\n  aliases: [/company]",
    )
    .expect("an alias");
    std::fs::write(copy.content.join("redirects.yaml"), REDIRECTS_YAML).expect("redirects");
    let out = copy.dir.path().join("dist");
    let moto = Moto::start();
    moto.create_bucket(BUCKET);
    let found = Found {
        credentials: moto.credentials.clone(),
        region: "us-east-1".into(),
    };

    assert_eq!(built(&copy, &out), Vec::<String>::new());
    deploy(&deploy_options(&out, &moto), &found).expect("the first deploy");
    let company = moto.get(BUCKET, "company/index.html");
    assert_eq!(
        company.website_redirect_location.as_deref(),
        Some("/about/")
    );

    // The article's slug changes and nothing says where its old path went: the build says so
    // of the output it replaces, and the deploy stops before any change, naming the path.
    let articles = copy.content.join("articles");
    std::fs::rename(
        articles.join(format!("{OLD}.md")),
        articles.join(format!("{NEW}.md")),
    )
    .expect("renamed");
    assert_eq!(built(&copy, &out), vec![format!("/insights/{OLD}/")]);
    let before = moto.list(BUCKET);
    let err = deploy(&deploy_options(&out, &moto), &found)
        .map(|_| ())
        .expect_err("refused");
    assert!(
        err.to_string().contains(&format!(
            "nothing was uploaded or deleted.\n  /insights/{OLD}/\n"
        )),
        "{err}"
    );
    assert_eq!(moto.list(BUCKET), before, "the bucket is untouched");

    // With the alias, the deploy goes through and the old path redirects.
    common::replace(
        &articles.join(format!("{NEW}.md")),
        "type: ",
        &format!("aliases: [/insights/{OLD}]\ntype: article"),
    )
    .expect("the article's alias");
    assert_eq!(built(&copy, &out), Vec::<String>::new());
    deploy(&deploy_options(&out, &moto), &found).expect("the deploy with the alias");
    let moved = moto.get(BUCKET, &format!("insights/{OLD}/index.html"));
    assert_eq!(
        moved.website_redirect_location,
        Some(format!("/insights/{NEW}/"))
    );

    // `_redirects`: each old path in both spellings, sorted by path, then the languages'
    // not-found rules.
    let rules: Vec<String> = read(&out, REDIRECTS_FILE)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    let moved_article = format!("/insights/{OLD} /insights/{NEW}/ 301");
    assert_eq!(
        rules,
        vec![
            "/company /about/ 301",
            "/company/ /about/ 301",
            &moved_article,
            &format!("/insights/{OLD}/ /insights/{NEW}/ 301"),
            "/offers/2023 /404.html 410",
            "/offers/2023/ /404.html 410",
            "/old-services /services/cloud-services/ 301",
            "/old-services/ /services/cloud-services/ 301",
            "/partners https://partners.example.com/ 301",
            "/partners/ https://partners.example.com/ 301",
            // Last: the Estonian not-found page for the unknown paths under /et/.
            "/et/* /et/404.html 404",
        ]
    );

    // The page at an old path, for hosts that read none of the rules.
    let company = read(&out, "company/index.html");
    for part in [
        "<html lang=\"en\">",
        "<title>This page has moved</title>",
        "<meta name=\"robots\" content=\"noindex\">",
        "<link rel=\"canonical\" href=\"https://www.nordvale.example/about/\">",
        "<meta http-equiv=\"refresh\" content=\"0; url=/about/\">",
        "<p>It is now at: <a href=\"/about/\">/about/</a></p>",
    ] {
        assert!(company.contains(part), "{part} is not in {company}");
    }
    let partners = read(&out, "partners/index.html");
    assert!(
        partners.contains("<a href=\"https://partners.example.com/\">its new address</a>"),
        "{partners}"
    );
    assert!(!out.join("offers/2023/index.html").exists());
    // Old paths are in no sitemap or feed.
    for file in ["sitemap.xml", "feed.xml"] {
        let text = read(&out, file);
        assert!(!text.contains("/company"), "{file}");
        assert!(!text.contains(&format!("/insights/{OLD}")), "{file}");
    }

    // `sitegen serve` answers every rule of `_redirects` as written, before any file.
    let table = Rules::load(&out).expect("_redirects reads back");
    let app = sitegen::serve::router(out.clone()).expect("servable");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let not_found = read(&out, "404.html");
    runtime.block_on(async {
        for rule in table.iter() {
            let res = app
                .clone()
                .oneshot(
                    Request::get(&rule.from)
                        .body(Body::empty())
                        .expect("a request"),
                )
                .await
                .expect("infallible");
            assert_eq!(res.status().as_u16(), rule.status, "{}", rule.from);
            if res.status() == StatusCode::GONE {
                let body = to_bytes(res.into_body(), usize::MAX).await.expect("a body");
                assert_eq!(body, not_found.as_bytes(), "{}", rule.from);
            } else {
                let location = res.headers().get("location").map(|v| v.to_str().ok());
                assert_eq!(location, Some(Some(rule.to.as_str())), "{}", rule.from);
            }
        }
        let about = app
            .clone()
            .oneshot(
                Request::get("/about/")
                    .body(Body::empty())
                    .expect("a request"),
            )
            .await
            .expect("infallible");
        assert_eq!(about.status(), StatusCode::OK);
    });

    // The CloudFront Function, run under Node, answers the same table, and passes the rest.
    let mut uris: Vec<String> = table.iter().map(|r| r.from.clone()).collect();
    uris.push("/about/".into());
    let script = "const fs = require('fs');\
        const handler = new Function(fs.readFileSync(process.argv[1], 'utf8') + '; return handler;')();\
        const uris = JSON.parse(process.argv[2]);\
        console.log(JSON.stringify(uris.map((uri) => handler({ request: { uri } }))));";
    let output = Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(out.join(CLOUDFRONT_FUNCTION_FILE))
        .arg(serde_json::to_string(&uris).expect("JSON"))
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<serde_json::Value> =
        serde_json::from_slice(&output.stdout).expect("the answers");
    for (rule, answer) in table.iter().zip(&answers) {
        assert_eq!(answer["statusCode"], rule.status, "{}", rule.from);
        if rule.status == 301 {
            assert_eq!(answer["headers"]["location"]["value"], rule.to.as_str());
        }
    }
    assert_eq!(
        answers.last(),
        Some(&serde_json::json!({ "uri": "/about/index.html" })),
        "a page is passed on to its index.html, the object a REST origin has"
    );
}

/// What the CloudFront Function `code` answers to each `(host, uri)`, run under Node, and the
/// keys it read from its KeyValueStore, in order. CloudFront's module `cloudfront` is stood in
/// for by a package beside the function whose store answers from `store` and, as CloudFront's
/// `get` does, throws on a key it does not have.
fn run_function(
    code: &str,
    store: &serde_json::Value,
    requests: &[(&str, &str)],
) -> (Vec<serde_json::Value>, Vec<String>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("function.mjs");
    std::fs::write(&file, format!("{code}\nexport {{ handler }};\n")).expect("write");
    let module = dir.path().join("node_modules/cloudfront");
    std::fs::create_dir_all(&module).expect("mkdir");
    std::fs::write(
        module.join("package.json"),
        r#"{ "name": "cloudfront", "type": "module", "exports": "./index.js" }"#,
    )
    .expect("write");
    std::fs::write(
        module.join("index.js"),
        "const store = JSON.parse(process.env.KVS);\n\
         export const reads = [];\n\
         export default { kvs: () => ({ async get(key) {\n\
           reads.push(key);\n\
           if (Object.hasOwn(store, key)) return store[key];\n\
           throw new Error(`The key ${key} does not exist`);\n\
         } }) };\n",
    )
    .expect("write");
    let script = "import { pathToFileURL } from 'node:url';\
        const { handler } = await import(pathToFileURL(process.argv[1]));\
        const { reads } = await import(pathToFileURL(process.argv[2]));\
        const answers = [];\
        for (const [host, uri] of JSON.parse(process.argv[3])) {\
          answers.push(await handler({ request: { uri, headers: { host: { value: host } } } }));\
        }\
        console.log(JSON.stringify([answers, reads]));";
    let output = Command::new("node")
        .current_dir(dir.path())
        .env("KVS", store.to_string())
        .args(["--input-type=module", "-e", script])
        .arg(&file)
        .arg(module.join("index.js"))
        .arg(serde_json::to_string(requests).expect("JSON"))
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the answers")
}

/// The answers of the CloudFront Function written for `rules` (with previews on
/// `preview.example.com`, no store of their redirects) to each `(host, uri)`, run under Node.
fn cloudfront_answers(rules: &Rules, requests: &[(&str, &str)]) -> Vec<serde_json::Value> {
    let code = rules
        .cloudfront_function(Some(PreviewHosts {
            domain: "preview.example.com",
            redirects_store: false,
        }))
        .expect("the function fits");
    run_function(&code, &serde_json::json!({}), requests).0
}

const NOINDEX: &str = "noindex";

#[test]
fn the_cloudfront_function_routes_a_preview_host_to_its_prefix_and_leaves_the_real_hosts_as_they_were()
 {
    let rules = Rules::parse("/old /about/ 301\n/old/ /about/ 301\n/gone /404.html 410\n")
        .expect("valid rules");
    let www = "www.example.com";
    let preview = "pr-7.preview.example.com";
    let answers = cloudfront_answers(
        &rules,
        &[
            (preview, "/about/"),
            (preview, "/et/about"),
            (preview, "/assets/app.1234.js"),
            (preview, "/"),
            ("bad_name.preview.example.com", "/"),
            (www, "/about/"),
            (www, "/old"),
            (www, "/gone"),
            (www, "/feed.xml"),
            (www, "/previews/pr-7/about/index.html"),
        ],
    );
    let uri =
        |uri: &str| serde_json::json!({ "uri": uri, "headers": { "host": { "value": preview } } });
    let www_uri =
        |uri: &str| serde_json::json!({ "uri": uri, "headers": { "host": { "value": www } } });
    let not_found = serde_json::json!({ "statusCode": 404, "statusDescription": "Not Found" });
    assert_eq!(
        answers,
        [
            uri("/previews/pr-7/about/index.html"),
            uri("/previews/pr-7/et/about/index.html"),
            uri("/previews/pr-7/assets/app.1234.js"),
            uri("/previews/pr-7/index.html"),
            serde_json::json!({
                "statusCode": 404,
                "statusDescription": "Not Found",
                "headers": { "x-robots-tag": { "value": NOINDEX } },
            }),
            www_uri("/about/index.html"),
            serde_json::json!({
                "statusCode": 301,
                "statusDescription": "Moved Permanently",
                "headers": { "location": { "value": "/about/" } },
            }),
            serde_json::json!({ "statusCode": 410, "statusDescription": "Gone" }),
            www_uri("/feed.xml"),
            not_found,
        ]
    );
}

/// A preview's own redirects, which the site's build cannot know, come from the KeyValueStore
/// `sitegen deploy --preview` fills; the site's hosts keep the inline table and never read it.
#[test]
fn a_preview_s_own_redirects_are_answered_at_its_host_from_the_store_and_the_site_s_hosts_keep_theirs()
 {
    let rules = Rules::parse("/old /about/ 301\n/old/ /about/ 301\n/gone /404.html 410\n")
        .expect("valid rules");
    let code = rules
        .cloudfront_function(Some(PreviewHosts {
            domain: "preview.example.com",
            redirects_store: true,
        }))
        .expect("the function fits");
    let preview_rules = Rules::parse("/old-pricing /pricing/ 301\n/offers/2023 /404.html 410\n")
        .expect("valid rules");
    let store: serde_json::Map<String, serde_json::Value> =
        sitegen::deploy::kvs::entries("pr-7", &preview_rules)
            .expect("they fit")
            .into_iter()
            .map(|(k, v)| (k, v.into()))
            .collect();
    let pr7 = "pr-7.preview.example.com";
    let www = "www.example.com";
    let (answers, reads) = run_function(
        &code,
        &store.into(),
        &[
            (pr7, "/old-pricing"),
            (pr7, "/offers/2023"),
            (pr7, "/old"),
            ("pr-8.preview.example.com", "/old-pricing"),
            (www, "/old-pricing"),
            (www, "/old"),
            (www, "/gone"),
        ],
    );
    let noindex = serde_json::json!({ "value": NOINDEX });
    assert_eq!(
        answers,
        [
            serde_json::json!({
                "statusCode": 301,
                "statusDescription": "Moved Permanently",
                "headers": { "location": { "value": "/pricing/" }, "x-robots-tag": noindex },
            }),
            serde_json::json!({
                "statusCode": 410,
                "statusDescription": "Gone",
                "headers": { "x-robots-tag": noindex },
            }),
            // A miss in the store: the page (or the not-found page) of the preview answers, and
            // the site's table is not the preview's.
            serde_json::json!({ "uri": "/previews/pr-7/old/index.html", "headers": { "host": { "value": pr7 } } }),
            serde_json::json!({
                "uri": "/previews/pr-8/old-pricing/index.html",
                "headers": { "host": { "value": "pr-8.preview.example.com" } },
            }),
            serde_json::json!({ "uri": "/old-pricing/index.html", "headers": { "host": { "value": www } } }),
            serde_json::json!({
                "statusCode": 301,
                "statusDescription": "Moved Permanently",
                "headers": { "location": { "value": "/about/" } },
            }),
            serde_json::json!({ "statusCode": 410, "statusDescription": "Gone" }),
        ]
    );
    assert_eq!(
        reads,
        [
            "pr-7/old-pricing",
            "pr-7/offers/2023",
            "pr-7/old",
            "pr-8/old-pricing"
        ],
        "only preview hosts read the store"
    );
    assert!(code.starts_with("import cf from 'cloudfront';\n"), "{code}");
}

#[test]
fn a_cloudfront_function_over_10_kb_is_refused_with_what_to_do() {
    let text: String = (0..400)
        .map(|n| format!("/old-page-number-{n} /about/ 301\n"))
        .collect();
    let rules = Rules::parse(&text).expect("valid rules");
    let err = rules
        .cloudfront_function(Some(PreviewHosts {
            domain: "preview.example.com",
            redirects_store: true,
        }))
        .expect_err("400 redirects do not fit");
    let message = err.to_string();
    assert!(
        message.starts_with("the CloudFront Function would be ")
            && message.contains("over CloudFront's limit of 10240 bytes"),
        "{message}"
    );
}

#[test]
fn the_preview_response_function_marks_only_preview_hosts_noindex() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("function.js");
    let code = sitegen::redirects::cloudfront_preview_response_function("preview.example.com")
        .expect("the function");
    std::fs::write(&file, code).expect("write");
    let script = "const fs = require('fs');\
        const handler = new Function(fs.readFileSync(process.argv[1], 'utf8') + '; return handler;')();\
        console.log(JSON.stringify(['pr-7.preview.example.com', 'www.example.com'].map((host) =>\
          handler({ request: { uri: '/', headers: { host: { value: host } } },\
                    response: { statusCode: 200, headers: {} } }).headers)));";
    let output = Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(&file)
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let headers: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        headers,
        serde_json::json!([{ "x-robots-tag": { "value": "noindex" } }, {}])
    );
}
