//! A form on a page in another language than the site's default (`?lang=et` on its address)
//! is answered in that language over real TCP and SMTP: the plain post's redirects, the
//! newsletter's confirmation email, its links and the pages they lead to, the auto-reply; a
//! language the site does not have is refused, naming the parameter.
#![allow(clippy::unwrap_used)]

use crate::support;

use contact_fn::contract::{ALTCHA, CONFIRM_PATH, FormKind, LANGUAGE_PARAM};
use contact_fn::language::{Language, Languages};
use serde_json::json;
use support::{Delivering, Mode, post_json, status_and_location};

const SITE: &str = "https://site.test";

/// The site's first language besides the default: the one the content translates into.
fn other() -> &'static Language {
    let languages = Languages::built_in().unwrap();
    languages
        .all()
        .get(1)
        .expect("the content has a second language")
}

/// Posts `body` as a plain form (url-encoded) to `url`; the status and where it leads.
async fn post_form(url: &str, body: &str) -> (u16, String) {
    let response = support::no_redirects()
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    status_and_location(&response)
}

#[tokio::test]
async fn a_plain_post_from_a_translated_page_ends_on_that_languages_pages() {
    let d = Delivering::start(Mode::Accept, &["--site-url", SITE]).await;
    let language = other();
    let tag = &language.tag;
    let url = format!(
        "{}?{LANGUAGE_PARAM}={tag}",
        d.service.url(FormKind::Contact.path())
    );
    let form = "name=Ada+Lovelace&email=ada%40example.org&countryCode=%2B372\
        &phone=600+4100&subject=Tere&message=Tere%21&_gotcha=";
    assert_eq!(
        post_form(&url, form).await,
        (303, format!("{SITE}/{tag}/contact/sent/"))
    );
    assert_eq!(
        post_form(&url, "name=Ada").await,
        (303, format!("{SITE}/{tag}/contact/error/"))
    );
    // Without the parameter, the default language's pages, as before languages.
    assert_eq!(
        post_form(&d.service.url(FormKind::Contact.path()), form).await,
        (303, format!("{SITE}/contact/sent/"))
    );

    // A language the site does not have: refused, naming the parameter; as a plain post, the
    // default language's error page.
    let foreign = format!(
        "{}?{LANGUAGE_PARAM}=xx",
        d.service.url(FormKind::Contact.path())
    );
    let (status, answer) = post_json(&d.client, &foreign, &support::contact_body()).await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(
        answer["fields"][LANGUAGE_PARAM]["code"], "not_an_option",
        "{answer}"
    );
    assert_eq!(
        post_form(&foreign, form).await,
        (303, format!("{SITE}/contact/error/"))
    );
    // The service delivers while the test posts, so what it accepted is counted at the SMTP
    // server once the outbox has drained, not in the outbox (a delivered message leaves it).
    d.smtp.wait_for(2).await;
    support::eventually("the outbox to empty", || d.outbox().is_empty()).await;
    assert_eq!(
        d.smtp.received().len(),
        2,
        "only the two accepted messages are sent"
    );
    d.service.stop().await;
}

#[tokio::test]
async fn the_newsletter_writes_and_leads_in_the_language_of_its_form() {
    let d = Delivering::start(Mode::Accept, &["--site-url", SITE]).await;
    let language = other();
    let tag = &language.tag;
    let words = &language.newsletter;
    let url = format!(
        "{}?{LANGUAGE_PARAM}={tag}",
        d.service.url(FormKind::Newsletter.path())
    );
    let (status, answer) =
        post_json(&d.client, &url, &json!({ "email": "lugeja@example.org" })).await;
    assert_eq!(status, 200, "{answer}");
    let mail = d.smtp.wait_for(1).await.remove(0);
    let parsed = mail.parsed();
    assert_eq!(parsed.subject(), Some(words.email.subject.as_str()));
    assert_eq!(
        parsed.header_raw("Content-Language").map(str::trim),
        Some(tag.as_str())
    );
    let html = parsed.body_html(0).unwrap().into_owned();
    assert!(html.contains(&format!("<html lang=\"{tag}\">")), "{html}");
    assert!(html.contains(&words.email.action), "{html}");
    let text = parsed.body_text(0).unwrap().into_owned();
    let confirm = text
        .split_whitespace()
        .find(|word| word.starts_with("http") && word.contains(CONFIRM_PATH))
        .unwrap()
        .to_owned();
    assert!(
        confirm.ends_with(&format!("&{LANGUAGE_PARAM}={tag}")),
        "{confirm}"
    );

    let response = support::no_redirects().get(&confirm).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 303);
    assert_eq!(
        response.headers()["location"].to_str().unwrap(),
        format!("{SITE}/{tag}/newsletter/confirmed/")
    );
    // The unsubscribe link leads to a page in the same language.
    let unsubscribe = parsed.header_raw("List-Unsubscribe").unwrap().trim();
    let unsubscribe = unsubscribe.trim_start_matches('<').trim_end_matches('>');
    let page = reqwest::get(unsubscribe)
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains(&format!("<html lang=\"{tag}\">")), "{page}");
    assert!(page.contains(&words.unsubscribe.button), "{page}");
    d.service.stop().await;
}

#[tokio::test]
async fn the_auto_reply_is_in_the_language_of_the_form() {
    let d = Delivering::start(
        Mode::Accept,
        &[
            "--proof-of-work",
            "--proof-of-work-max-number",
            "2000",
            "--auto-reply",
        ],
    )
    .await;
    let language = other();
    let mut body = support::contact_body();
    body[ALTCHA] = json!(support::solve_challenge(&d.service).await);
    let url = format!(
        "{}?{LANGUAGE_PARAM}={}",
        d.service.url(FormKind::Contact.path()),
        language.tag
    );
    let (status, answer) = post_json(&d.client, &url, &body).await;
    assert_eq!(status, 200, "{answer}");
    let received = d.smtp.wait_for(2).await;
    let reply = received
        .iter()
        .find(|m| m.parsed().header_raw("Auto-Submitted").is_some())
        .expect("an auto-reply");
    let parsed = reply.parsed();
    assert_eq!(parsed.subject(), Some(language.auto_reply.subject.as_str()));
    assert_eq!(
        parsed.header_raw("Content-Language").map(str::trim),
        Some(language.tag.as_str())
    );
    let text = parsed.body_text(0).unwrap().into_owned();
    assert!(text.contains(&language.auto_reply.signature), "{text}");
    d.service.stop().await;
}
