//! The emitted `_headers`, as `sitegen serve` applies them to a page, scored by the rubric of
//! the Mozilla HTTP Observatory (MDN's scanner: its CSP, cookies, CORS, redirection,
//! Referrer-Policy, HSTS, SRI, X-Content-Type-Options, X-Frame-Options and CORP tests, their
//! modifiers, and the rule that bonuses count only when the score without them is 90 or
//! more). The site is assumed to be served over HTTPS with a valid certificate, redirecting
//! plain HTTP to HTTPS on the same host (a host setting, worth 0), and not HSTS-preloaded.

use std::collections::{BTreeMap, BTreeSet};

use axum::body::{Body, to_bytes};
use axum::http::{HeaderMap, Request, StatusCode};
use sitegen::content::settings::CacheRules;
use sitegen::outputs::{SitemapEntry, write_site_files};
use tower::ServiceExt;

/// One test's outcome: its name, the rubric's result name and modifier.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Outcome {
    test: &'static str,
    result: &'static str,
    modifier: i32,
}

fn outcome(test: &'static str, result: &'static str, modifier: i32) -> Outcome {
    Outcome {
        test,
        result,
        modifier,
    }
}

/// Every value of `name`, joined as a client sees repeated headers.
fn values(headers: &HeaderMap, name: &str) -> Vec<String> {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(str::to_owned)
        .collect()
}

const DANGEROUSLY_BROAD: [&str; 8] = [
    "ftp:",
    "http:",
    "https:",
    "*",
    "http://*",
    "http://*.*",
    "https://*",
    "https://*.*",
];
const UNSAFE_INLINE: [&str; 2] = ["'unsafe-inline'", "data:"];
const NONCES_HASHES: [&str; 4] = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];

fn broad(source: &str) -> bool {
    DANGEROUSLY_BROAD.contains(&source)
}
fn broad_or_inline(source: &str) -> bool {
    broad(source) || UNSAFE_INLINE.contains(&source)
}

/// Parses one policy as the scanner does: directives lower-cased, sources lower-cased, an
/// empty `*-src` meaning `'none'`, a repeated directive making the header invalid.
fn parse_csp(policy: &str) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let policy = policy.replace(['\r', '\n'], "");
    let policy = policy.trim();
    if policy.len() < "img-src".len() - 1 {
        return Err(format!("invalid policy {policy:?}"));
    }
    let mut csp = BTreeMap::new();
    for entry in policy.split(';') {
        let mut words = entry.split_whitespace();
        let Some(directive) = words.next() else {
            continue;
        };
        let directive = directive.to_lowercase();
        let mut sources: BTreeSet<String> = words.map(str::to_lowercase).collect();
        if sources.is_empty() && directive.ends_with("-src") {
            sources.insert("'none'".into());
        }
        if csp.insert(directive.clone(), sources).is_some()
            && !matches!(directive.as_str(), "report-uri" | "report-to")
        {
            return Err(format!("duplicate directive {directive}"));
        }
    }
    Ok(csp)
}

fn csp_test(headers: &HeaderMap) -> (Outcome, Option<BTreeMap<String, BTreeSet<String>>>) {
    let test = "content-security-policy";
    let policies: Vec<String> = values(headers, "content-security-policy")
        .iter()
        .flat_map(|v| v.split(',').map(|p| p.trim().to_owned()))
        .collect();
    if policies.is_empty() {
        return (outcome(test, "csp-not-implemented", -25), None);
    }
    // One policy is what `_headers` emits; several would need the scanner's intersection.
    assert_eq!(
        policies.len(),
        1,
        "the scorer handles one policy: {policies:?}"
    );
    let Ok(csp) = parse_csp(&policies[0]) else {
        return (outcome(test, "csp-header-invalid", -25), None);
    };
    let any = || BTreeSet::from(["*".to_owned()]);
    let get = |d: &str| csp.get(d).cloned();
    let mut script_src = get("script-src")
        .or_else(|| get("default-src"))
        .unwrap_or_else(any);
    let mut style_src = get("style-src")
        .or_else(|| get("default-src"))
        .unwrap_or_else(any);
    let object_src = get("object-src")
        .or_else(|| get("default-src"))
        .unwrap_or_else(any);
    for list in [&mut script_src, &mut style_src] {
        if list
            .iter()
            .any(|s| NONCES_HASHES.iter().any(|n| s.starts_with(n)))
        {
            list.remove("'unsafe-inline'");
        }
    }
    let mut result = None;
    if script_src
        .iter()
        .any(|s| NONCES_HASHES.iter().any(|n| s.starts_with(n)))
        && script_src.contains("'strict-dynamic'")
    {
        script_src.retain(|s| {
            !(DANGEROUSLY_BROAD.iter().any(|b| s.starts_with(b))
                || s == "'self'"
                || s == "'unsafe-inline'")
        });
    } else if script_src.contains("'strict-dynamic'") {
        result = Some(("csp-header-invalid", -25));
    }
    const PASSIVE: [&str; 2] = ["img-src", "media-src"];
    let mut active: Vec<&String> = csp
        .iter()
        .filter(|(d, _)| !PASSIVE.contains(&d.as_str()) && d.as_str() != "script-src")
        .flat_map(|(_, s)| s)
        .collect();
    active.extend(script_src.iter());
    let passive: Vec<String> = PASSIVE
        .iter()
        .flat_map(|d| get(d).or_else(|| get("default-src")).unwrap_or_default())
        .collect();
    let insecure = |s: &str| s.starts_with("http:") || s.starts_with("ftp:");

    if script_src.iter().any(|s| broad_or_inline(s)) || object_src.iter().any(|s| broad(s)) {
        result.get_or_insert(("csp-implemented-with-unsafe-inline", -20));
    }
    if active.iter().any(|s| insecure(s)) {
        result.get_or_insert(("csp-implemented-with-insecure-scheme", -20));
    }
    if script_src.contains("'unsafe-eval'") || style_src.contains("'unsafe-eval'") {
        result.get_or_insert(("csp-implemented-with-unsafe-eval", -10));
    }
    if passive.iter().any(|s| insecure(s)) {
        result.get_or_insert((
            "csp-implemented-with-insecure-scheme-in-passive-content-only",
            -10,
        ));
    }
    if style_src.iter().any(|s| broad_or_inline(s)) {
        result.get_or_insert(("csp-implemented-with-unsafe-inline-in-style-src-only", 0));
    }
    let default_none = csp
        .get("default-src")
        .is_some_and(|d| d.len() == 1 && d.contains("'none'"));
    let (name, modifier) = result.unwrap_or(if default_none {
        ("csp-implemented-with-no-unsafe-default-src-none", 10)
    } else {
        ("csp-implemented-with-no-unsafe", 5)
    });
    (outcome(test, name, modifier), Some(csp))
}

fn cookies_test(headers: &HeaderMap) -> Outcome {
    // A static site sets no cookies; anything else is outside what this scorer grades.
    assert!(
        values(headers, "set-cookie").is_empty(),
        "cookies are not scored here"
    );
    outcome("cookies", "cookies-not-found", 0)
}

fn cors_test(headers: &HeaderMap) -> Outcome {
    let test = "cross-origin-resource-sharing";
    match values(headers, "access-control-allow-origin").first() {
        None => outcome(test, "cross-origin-resource-sharing-not-implemented", 0),
        Some(origin) if origin.trim() == "*" => outcome(
            test,
            "cross-origin-resource-sharing-implemented-with-public-access",
            0,
        ),
        Some(_)
            if values(headers, "access-control-allow-credentials")
                .first()
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("true")) =>
        {
            outcome(
                test,
                "cross-origin-resource-sharing-implemented-with-universal-access",
                -50,
            )
        }
        Some(_) => outcome(
            test,
            "cross-origin-resource-sharing-implemented-with-restricted-access",
            0,
        ),
    }
}

fn redirection_test() -> Outcome {
    outcome("redirection", "redirection-to-https", 0)
}

fn referrer_policy_test(headers: &HeaderMap) -> Outcome {
    let test = "referrer-policy";
    const GOOD: [&str; 4] = [
        "no-referrer",
        "same-origin",
        "strict-origin",
        "strict-origin-when-cross-origin",
    ];
    const BAD: [&str; 4] = [
        "origin",
        "origin-when-cross-origin",
        "unsafe-url",
        "no-referrer-when-downgrade",
    ];
    let all = values(headers, "referrer-policy");
    if all.is_empty() {
        return outcome(test, "referrer-policy-not-implemented", 0);
    }
    let joined = all.join(", ");
    let last_valid = joined
        .split(',')
        .map(|p| p.trim().to_lowercase())
        .rfind(|p| GOOD.contains(&p.as_str()) || BAD.contains(&p.as_str()))
        .unwrap_or_default();
    if GOOD.contains(&last_valid.as_str()) {
        outcome(test, "referrer-policy-private", 5)
    } else if BAD.contains(&last_valid.as_str()) {
        outcome(test, "referrer-policy-unsafe", -5)
    } else {
        outcome(test, "referrer-policy-header-invalid", -5)
    }
}

fn hsts_test(headers: &HeaderMap) -> Outcome {
    let test = "strict-transport-security";
    // 15768000 is six months; the scanner accepts the common 15552000.
    const SIX_MONTHS: u64 = 15_552_000;
    let Some(header) = values(headers, "strict-transport-security")
        .into_iter()
        .next()
    else {
        return outcome(test, "hsts-not-implemented", -20);
    };
    let invalid = outcome(test, "hsts-header-invalid", -20);
    if header.contains(',') {
        return invalid;
    }
    let max_age = header
        .split(';')
        .map(|p| p.trim().to_lowercase())
        .find_map(|p| p.strip_prefix("max-age=").map(str::to_owned));
    // JavaScript's parseInt reads the leading digits.
    let digits = max_age.map(|v| {
        v.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
    });
    match digits.and_then(|d| d.parse::<u64>().ok()) {
        None => invalid,
        Some(age) if age < SIX_MONTHS => {
            outcome(test, "hsts-implemented-max-age-less-than-six-months", -10)
        }
        Some(_) => outcome(test, "hsts-implemented-max-age-at-least-six-months", 0),
    }
}

/// The scanner's SRI test on the page's `<script src>` elements.
fn sri_test(headers: &HeaderMap, html: &str) -> Outcome {
    let test = "subresource-integrity";
    let is_html = values(headers, "content-type")
        .first()
        .is_some_and(|t| t.starts_with("text/html"));
    if !is_html {
        return outcome(test, "sri-not-implemented-response-not-html", 0);
    }
    let doc = scraper::Html::parse_document(html);
    let selector = scraper::Selector::parse("script[src]").expect("a valid selector");
    let scripts: Vec<_> = doc.select(&selector).map(|s| s.value()).collect();
    if scripts.is_empty() {
        return outcome(test, "sri-not-implemented-but-no-scripts-loaded", 0);
    }
    let (mut external, mut insecure, mut all_with_integrity) = (false, false, true);
    for script in &scripts {
        let src = script.attr("src").unwrap_or_default();
        let is_external = src.starts_with("//") || src.contains("://");
        if is_external {
            external = true;
            insecure |= src.starts_with("http:") || src.starts_with("//");
            all_with_integrity &= script.attr("integrity").is_some();
        }
    }
    match (external, insecure, all_with_integrity) {
        (false, _, _) => outcome(
            test,
            "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
            0,
        ),
        (true, false, true) => outcome(
            test,
            "sri-implemented-and-external-scripts-loaded-securely",
            5,
        ),
        (true, false, false) => outcome(
            test,
            "sri-not-implemented-but-external-scripts-loaded-securely",
            -5,
        ),
        (true, true, true) => outcome(
            test,
            "sri-implemented-but-external-scripts-not-loaded-securely",
            -20,
        ),
        (true, true, false) => outcome(
            test,
            "sri-not-implemented-and-external-scripts-not-loaded-securely",
            -50,
        ),
    }
}

fn x_content_type_options_test(headers: &HeaderMap) -> Outcome {
    let test = "x-content-type-options";
    match values(headers, "x-content-type-options").first() {
        None => outcome(test, "x-content-type-options-not-implemented", -5),
        Some(v) if v.trim().eq_ignore_ascii_case("nosniff") => {
            outcome(test, "x-content-type-options-nosniff", 0)
        }
        Some(_) => outcome(test, "x-content-type-options-header-invalid", -5),
    }
}

fn x_frame_options_test(
    headers: &HeaderMap,
    csp: Option<&BTreeMap<String, BTreeSet<String>>>,
) -> Outcome {
    let test = "x-frame-options";
    if csp.is_some_and(|csp| csp.contains_key("frame-ancestors")) {
        return outcome(test, "x-frame-options-implemented-via-csp", 5);
    }
    match values(headers, "x-frame-options").first() {
        None => outcome(test, "x-frame-options-not-implemented", -20),
        Some(v) => match v.trim().to_lowercase().as_str() {
            "deny" | "sameorigin" => outcome(test, "x-frame-options-sameorigin-or-deny", 0),
            v if v.starts_with("allow-from") => {
                outcome(test, "x-frame-options-allow-from-origin", 0)
            }
            _ => outcome(test, "x-frame-options-header-invalid", -20),
        },
    }
}

fn corp_test(headers: &HeaderMap) -> Outcome {
    let test = "cross-origin-resource-policy";
    match values(headers, "cross-origin-resource-policy")
        .first()
        .map(|v| v.trim().to_lowercase())
        .as_deref()
    {
        None => outcome(test, "corp-not-implemented", 0),
        Some("same-site") => outcome(test, "corp-implemented-with-same-site", 10),
        Some("same-origin") => outcome(test, "corp-implemented-with-same-origin", 10),
        Some("cross-origin") => outcome(test, "corp-implemented-with-cross-origin", 0),
        Some(_) => outcome(test, "corp-header-invalid", -5),
    }
}

/// Every test's outcome and the score: 100 plus every modifier when the penalties alone
/// leave at least 90, else 100 plus the penalties only.
fn score(headers: &HeaderMap, html: &str) -> (i32, Vec<Outcome>) {
    let (csp, policy) = csp_test(headers);
    let outcomes = vec![
        x_frame_options_test(headers, policy.as_ref()),
        csp,
        cookies_test(headers),
        cors_test(headers),
        redirection_test(),
        referrer_policy_test(headers),
        hsts_test(headers),
        sri_test(headers, html),
        x_content_type_options_test(headers),
        corp_test(headers),
    ];
    let with_bonus: i32 = 100 + outcomes.iter().map(|o| o.modifier).sum::<i32>();
    let penalties_only: i32 = 100 + outcomes.iter().map(|o| o.modifier.min(0)).sum::<i32>();
    let score = if penalties_only >= 90 {
        with_bonus
    } else {
        penalties_only
    };
    (score.max(0), outcomes)
}

fn grade(score: i32) -> &'static str {
    match score {
        100.. => "A+",
        90..=99 => "A",
        85..=89 => "A-",
        80..=84 => "B+",
        70..=79 => "B",
        65..=69 => "B-",
        60..=64 => "C+",
        50..=59 => "C",
        45..=49 => "C-",
        40..=44 => "D+",
        30..=39 => "D",
        25..=29 => "D-",
        _ => "F",
    }
}

const PAGE: &str = r#"<!doctype html><html><head><title>t</title>
<script type="speculationrules">{"prefetch":[{"where":{"href_matches":"/*"},"eagerness":"moderate"}]}</script>
<script type="module" src="/assets/app-abc123.js"></script></head><body><p>hi</p></body></html>"#;

/// The headers `sitegen serve` sends for `path` of a site whose `_headers` is the one
/// sitegen writes, and the body.
async fn served(path: &str) -> (HeaderMap, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    write_site_files(
        dir.path(),
        dir.path(),
        "https://www.example.com",
        "https://contact.example.com/send-contact-email",
        &[SitemapEntry::listed("/"), SitemapEntry::listed("/about")],
        &[],
        &CacheRules::default(),
    )
    .expect("site files");
    for file in ["index.html", "about/index.html", "404.html"] {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, PAGE).expect("write");
    }
    let res = sitegen::serve::router(dir.path().to_path_buf())
        .expect("servable")
        .oneshot(Request::get(path).body(Body::empty()).expect("request"))
        .await
        .expect("infallible");
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    let headers = res.headers().clone();
    let body = to_bytes(res.into_body(), usize::MAX).await.expect("body");
    (headers, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn every_page_scores_at_least_a_plus_by_the_observatory_rubric() {
    for path in ["/", "/about/", "/about"] {
        let (headers, html) = served(path).await;
        let (score, outcomes) = score(&headers, &html);
        assert!(
            score >= 100,
            "{path}: {score} ({})\n{outcomes:#?}",
            grade(score)
        );
        assert_eq!(grade(score), "A+");
        // No test is failed or penalised.
        assert!(outcomes.iter().all(|o| o.modifier >= 0), "{outcomes:#?}");
        assert_eq!(score, 125, "{path}: {outcomes:#?}");
    }
}

#[test]
fn the_rubric_penalises_what_it_should() {
    let headers = |pairs: &[(&'static str, &str)]| {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().expect("a header value"));
        }
        map
    };
    let html_type = ("content-type", "text/html; charset=utf-8");
    // Nothing set: CSP -25, HSTS -20, XCTO -5, XFO -20.
    let (s, _) = score(&headers(&[html_type]), PAGE);
    assert_eq!(s, 30);
    let (csp, _) = csp_test(&headers(&[(
        "content-security-policy",
        "default-src 'self'; style-src 'self' 'unsafe-inline'",
    )]));
    assert_eq!(
        csp.result,
        "csp-implemented-with-unsafe-inline-in-style-src-only"
    );
    let (csp, _) = csp_test(&headers(&[(
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'unsafe-inline'",
    )]));
    assert_eq!(csp.modifier, -20);
    let (csp, _) = csp_test(&headers(&[(
        "content-security-policy",
        "script-src 'self'; script-src 'none'",
    )]));
    assert_eq!(csp.result, "csp-header-invalid");
    let (csp, _) = csp_test(&headers(&[(
        "content-security-policy",
        "default-src 'none'; form-action 'self'",
    )]));
    assert_eq!(csp.modifier, 10);
    assert_eq!(
        hsts_test(&headers(&[("strict-transport-security", "max-age=86400")])).modifier,
        -10
    );
    assert_eq!(
        hsts_test(&headers(&[(
            "strict-transport-security",
            "includeSubDomains"
        )]))
        .result,
        "hsts-header-invalid"
    );
    assert_eq!(
        referrer_policy_test(&headers(&[("referrer-policy", "unsafe-url")])).modifier,
        -5
    );
    assert_eq!(
        corp_test(&headers(&[("cross-origin-resource-policy", "x")])).modifier,
        -5
    );
    assert_eq!(
        x_frame_options_test(&headers(&[("x-frame-options", "DENY")]), None).modifier,
        0
    );
    let external = r#"<script src="https://cdn.example.com/x.js"></script>"#;
    assert_eq!(sri_test(&headers(&[html_type]), external).modifier, -5);
    // A failing test withholds every bonus: CSP +5, Referrer +5, XFO +5, CORP +10 are not
    // counted while HSTS is missing (-20 leaves 80).
    let (s, _) = score(
        &headers(&[
            html_type,
            (
                "content-security-policy",
                "default-src 'self'; frame-ancestors 'none'; object-src 'none'",
            ),
            ("referrer-policy", "no-referrer"),
            ("x-content-type-options", "nosniff"),
            ("cross-origin-resource-policy", "same-origin"),
        ]),
        PAGE,
    );
    assert_eq!(s, 80);
}
