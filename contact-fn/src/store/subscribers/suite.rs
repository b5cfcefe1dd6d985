//! The behaviour every [`SubscriberStore`] must have, written against the trait so that each
//! implementation runs the same suite: `check_store(&store).await`. Public (hidden) for the
//! integration tests, which run it against both stores (`tests/it/store.rs`).
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use form_contract::FormKind;

use super::{Confirmation, Confirmed, DAY_MS, Requested, SendLimits, Status, SubscriberStore};

const HOUR_MS: u64 = 3600 * 1000;
/// The per-address limits the suite runs with.
pub(crate) const LIMITS: SendLimits = SendLimits {
    resend_after: Duration::from_secs(3600),
    per_day: 3,
};
/// A moment well after the epoch, so that "a day ago" is a time too.
pub(crate) const T0: u64 = 1_800_000_000_000;

fn confirmation(issued_ms: u64, now_ms: u64) -> Confirmation {
    Confirmation {
        source: FormKind::Newsletter,
        consent_version: "v1".into(),
        consent_text: "One email a week.".into(),
        issued_ms,
        now_ms,
    }
}

/// Runs every check against `store`, which must be empty and allow at least 10 addresses.
pub async fn check_store(store: &dyn SubscriberStore) {
    requests_are_limited_per_address(store).await;
    a_request_decided_after_a_later_send_is_limited(store).await;
    confirming_records_the_consent_and_twice_is_harmless(store).await;
    unsubscribing_suppresses_until_a_newer_link(store).await;
    removing_forgets_everything(store).await;
    addresses_are_one_whatever_their_case(store).await;
    pruning_forgets_only_old_pending_addresses(store).await;
}

async fn requests_are_limited_per_address(store: &dyn SubscriberStore) {
    let a = "limit@example.org".to_owned();
    let ask = |at| store.request(a.clone(), LIMITS, at);
    assert_eq!(ask(T0).await.unwrap(), Requested::Send);
    assert_eq!(
        ask(T0 + 1).await.unwrap(),
        Requested::Limited,
        "within the hour"
    );
    assert_eq!(ask(T0 + HOUR_MS - 1).await.unwrap(), Requested::Limited);
    assert_eq!(ask(T0 + HOUR_MS).await.unwrap(), Requested::Send);
    assert_eq!(ask(T0 + 2 * HOUR_MS).await.unwrap(), Requested::Send);
    assert_eq!(
        ask(T0 + 3 * HOUR_MS).await.unwrap(),
        Requested::Limited,
        "three a day"
    );
    assert_eq!(
        ask(T0 + DAY_MS).await.unwrap(),
        Requested::Send,
        "a day later"
    );
    let entry = store.get(a.clone()).await.unwrap().unwrap();
    assert!(
        matches!(entry.status, Status::Pending { requested_ms } if requested_ms == T0 + DAY_MS)
    );
    assert!(
        store
            .request("other@example.org".into(), LIMITS, T0 + 1)
            .await
            .unwrap()
            == Requested::Send,
        "other addresses keep their own count"
    );
}

async fn a_request_decided_after_a_later_send_is_limited(store: &dyn SubscriberStore) {
    let a = "late@example.org".to_owned();
    assert_eq!(
        store.request(a.clone(), LIMITS, T0 + 5).await.unwrap(),
        Requested::Send
    );
    assert_eq!(
        store.request(a.clone(), LIMITS, T0).await.unwrap(),
        Requested::Limited,
        "its time was taken before the email it waited for was counted"
    );
}

async fn confirming_records_the_consent_and_twice_is_harmless(store: &dyn SubscriberStore) {
    let a = "confirm@example.org".to_owned();
    assert_eq!(
        store
            .confirm(a.clone(), confirmation(T0, T0))
            .await
            .unwrap(),
        Confirmed::Outdated,
        "an address that never asked"
    );
    store.request(a.clone(), LIMITS, T0).await.unwrap();
    assert_eq!(
        store
            .confirm(a.clone(), confirmation(T0, T0 + 5))
            .await
            .unwrap(),
        Confirmed::Subscribed
    );
    assert_eq!(
        store
            .confirm(a.clone(), confirmation(T0, T0 + 9))
            .await
            .unwrap(),
        Confirmed::Already
    );
    assert_eq!(
        store.request(a.clone(), LIMITS, T0 + DAY_MS).await.unwrap(),
        Requested::AlreadySubscribed
    );
    let exported = store.export().await.unwrap();
    let found = exported.iter().find(|s| s.address == a).unwrap();
    assert_eq!(found.confirmed_ms, T0 + 5);
    assert_eq!(found.source, FormKind::Newsletter);
    assert_eq!(found.consent_version, "v1");
    assert_eq!(found.consent_text, "One email a week.");
}

async fn unsubscribing_suppresses_until_a_newer_link(store: &dyn SubscriberStore) {
    let a = "leave@example.org".to_owned();
    store.request(a.clone(), LIMITS, T0).await.unwrap();
    store
        .confirm(a.clone(), confirmation(T0, T0 + 1))
        .await
        .unwrap();
    assert!(store.unsubscribe(a.clone(), T0 + 10).await.unwrap());
    assert!(!store.export().await.unwrap().iter().any(|s| s.address == a));
    assert_eq!(
        store
            .confirm(a.clone(), confirmation(T0, T0 + 20))
            .await
            .unwrap(),
        Confirmed::Outdated,
        "a link sent before leaving does not add it again"
    );
    assert_eq!(
        store
            .request(a.clone(), LIMITS, T0 + 2 * HOUR_MS)
            .await
            .unwrap(),
        Requested::Send
    );
    let entry = store.get(a.clone()).await.unwrap().unwrap();
    assert!(
        matches!(entry.status, Status::Unsubscribed { .. }),
        "still suppressed until confirmed: {entry:?}"
    );
    assert_eq!(
        store
            .confirm(a.clone(), confirmation(T0 + 2 * HOUR_MS, T0 + 3 * HOUR_MS))
            .await
            .unwrap(),
        Confirmed::Subscribed,
        "a link sent after leaving subscribes again"
    );
    assert!(
        !store
            .unsubscribe("stranger@example.org".into(), T0)
            .await
            .unwrap()
    );
}

async fn removing_forgets_everything(store: &dyn SubscriberStore) {
    let a = "erase@example.org".to_owned();
    store.request(a.clone(), LIMITS, T0).await.unwrap();
    store
        .confirm(a.clone(), confirmation(T0, T0 + 1))
        .await
        .unwrap();
    assert!(store.remove(a.clone()).await.unwrap());
    assert!(store.get(a.clone()).await.unwrap().is_none());
    assert!(!store.remove(a.clone()).await.unwrap());
    assert_eq!(
        store
            .confirm(a.clone(), confirmation(T0, T0 + 2))
            .await
            .unwrap(),
        Confirmed::Outdated,
        "an old link does not bring it back"
    );
}

async fn addresses_are_one_whatever_their_case(store: &dyn SubscriberStore) {
    store
        .request("Case@Example.org".into(), LIMITS, T0)
        .await
        .unwrap();
    assert_eq!(
        store
            .request(" case@example.ORG ".into(), LIMITS, T0 + 1)
            .await
            .unwrap(),
        Requested::Limited
    );
    let entry = store.get("CASE@example.org".into()).await.unwrap().unwrap();
    assert_eq!(entry.address, "case@example.org");
}

async fn pruning_forgets_only_old_pending_addresses(store: &dyn SubscriberStore) {
    let later = T0 + 10 * DAY_MS;
    store
        .request("fresh@example.org".into(), LIMITS, later)
        .await
        .unwrap();
    let forgotten = store
        .prune(later + 1, Duration::from_secs(3 * 86_400))
        .await
        .unwrap();
    // The pending addresses of the checks above, asked more than three days before.
    assert!(forgotten >= 2, "{forgotten}");
    assert!(
        store
            .get("limit@example.org".into())
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .get("fresh@example.org".into())
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        store
            .get("confirm@example.org".into())
            .await
            .unwrap()
            .is_some(),
        "subscribers stay"
    );
    assert!(
        store
            .get("leave@example.org".into())
            .await
            .unwrap()
            .is_some(),
        "so do the suppressed"
    );
}
