//! A preview's own redirects in the CloudFront KeyValueStore: `sitegen deploy --preview NAME`
//! writes the rules of the preview build's `_redirects` under `NAME/`, changes only what
//! changed, deletes what the build no longer has, and never touches another preview's keys;
//! `--remove-preview NAME` deletes exactly NAME's. Run against [`FakeKvs`], the data plane's
//! subset sitegen calls (moto has none).

use crate::support::kvs::{ARN, FakeKvs, PAGE};
use sitegen::deploy::credentials::Credentials;
use sitegen::deploy::kvs::{BATCH, Changed, KeyValueStore};
use sitegen::redirects::Rules;

fn credentials() -> Credentials {
    Credentials {
        key: "AKIDEXAMPLE".into(),
        secret: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
        token: None,
    }
}

fn keys(server: &FakeKvs) -> Vec<(String, String)> {
    server
        .store()
        .keys
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn pair(key: &str, value: &str) -> (String, String) {
    (key.to_owned(), value.to_owned())
}

#[test]
fn a_preview_s_redirects_are_written_changed_and_removed_without_touching_another_preview() {
    let server = FakeKvs::start();
    server
        .store()
        .keys
        .insert("pr-8/old".into(), "301 /about/".into());
    let store = KeyValueStore::at(ARN, &server.endpoint);
    let creds = credentials();

    let rules = Rules::parse("/old /about/ 301\n/old/ /about/ 301\n/offers/2023 /404.html 410\n")
        .expect("rules");
    let changed = store.publish("pr-7", &rules, &creds).expect("published");
    assert_eq!(changed, Changed { put: 3, deleted: 0 });
    assert_eq!(
        keys(&server),
        [
            pair("pr-7/offers/2023", "410"),
            pair("pr-7/old", "301 /about/"),
            pair("pr-7/old/", "301 /about/"),
            pair("pr-8/old", "301 /about/"),
        ]
    );

    // The same build again changes nothing; a new one changes only what differs.
    let again = store.publish("pr-7", &rules, &creds).expect("published");
    assert_eq!(again, Changed::default());
    let rules = Rules::parse("/old /pricing/ 301\n/old/ /pricing/ 301\n").expect("rules");
    let changed = store.publish("pr-7", &rules, &creds).expect("published");
    assert_eq!(changed, Changed { put: 2, deleted: 1 });
    assert_eq!(
        keys(&server),
        [
            pair("pr-7/old", "301 /pricing/"),
            pair("pr-7/old/", "301 /pricing/"),
            pair("pr-8/old", "301 /about/"),
        ]
    );

    assert_eq!(store.remove("pr-7", &creds).expect("removed"), 2);
    assert_eq!(keys(&server), [pair("pr-8/old", "301 /about/")]);
}

#[test]
fn many_redirects_go_in_batches_over_listing_pages_and_a_write_racing_another_is_sent_again() {
    let server = FakeKvs::start();
    let store = KeyValueStore::at(ARN, &server.endpoint);
    let creds = credentials();
    let text: String = (0..120)
        .map(|n| format!("/old-{n} /about/ 301\n"))
        .collect();
    let rules = Rules::parse(&text).expect("rules");

    server.store().race_next_update = true;
    let changed = store.publish("pr-7", &rules, &creds).expect("published");
    assert_eq!(
        changed,
        Changed {
            put: 120,
            deleted: 0
        }
    );
    {
        let held = server.store();
        assert_eq!(held.keys.len(), 120);
        assert_eq!(held.conflicts, 1, "the raced batch was refused once");
        assert_eq!(held.batches, [BATCH, BATCH, 20]);
    }

    // Listing 120 keys takes pages of PAGE; removing them, batches again.
    const { assert!(PAGE < 120) };
    assert_eq!(store.remove("pr-7", &creds).expect("removed"), 120);
    assert!(server.store().keys.is_empty());
}

#[test]
fn the_store_s_refusal_is_reported_with_its_message() {
    let server = FakeKvs::start();
    let other = ARN.replace("3a1f", "ffff");
    let store = KeyValueStore::at(&other, &server.endpoint);
    let err = store
        .remove("pr-7", &credentials())
        .expect_err("no such store");
    let message = format!("{err:#}");
    assert!(
        message.contains("the KeyValueStore answered 404: no store arn:aws:cloudfront::"),
        "{message}"
    );
}
