//! Webhook notifications against real HTTP receivers on loopback, each checking the signature
//! with its own implementation of the Standard Webhooks scheme: every accepted message reaches
//! every URL signed, a receiver killed during a burst loses nothing and delays no email, each
//! message keeps one `webhook-id` however often it is retried, and the Slack format cannot
//! mention anyone.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use contact_fn::contract::FormKind;
use contact_fn::webhook::{ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use serde_json::{Value, json};
use support::{Mode, Service, SmtpServer, eventually, post_json};
use tokio::net::TcpListener;
use tokio::task::{JoinHandle, JoinSet};

/// The key the tests sign with: 32 bytes, in the `whsec_` form.
fn secret() -> String {
    format!("whsec_{}", STANDARD.encode([7_u8; 32]))
}

/// One request as a receiver got it.
#[derive(Debug, Clone)]
struct Post {
    headers: HeaderMap,
    body: Bytes,
}

impl Post {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map_or("", |v| v.to_str().unwrap_or(""))
    }

    fn id(&self) -> String {
        self.header(ID_HEADER).to_owned()
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }

    /// Whether the signature holds, checked as the specification describes it, apart from the
    /// service's code: the key is the base64 after `whsec_`; the signed content is
    /// `id.timestamp.body`; any of the space-separated `v1,<base64>` signatures may match.
    fn verifies(&self, secret: &str) -> bool {
        let key = STANDARD
            .decode(secret.strip_prefix("whsec_").unwrap())
            .unwrap();
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &key);
        let timestamp: u64 = self.header(TIMESTAMP_HEADER).parse().unwrap_or(0);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        // The specification's tolerance against replays: five minutes either way.
        if now.abs_diff(timestamp) > 300 {
            return false;
        }
        let mut content = format!("{}.{timestamp}.", self.id()).into_bytes();
        content.extend_from_slice(&self.body);
        self.header(SIGNATURE_HEADER).split(' ').any(|signature| {
            signature
                .strip_prefix("v1,")
                .and_then(|s| STANDARD.decode(s).ok())
                .is_some_and(|tag| ring::hmac::verify(&key, &content, &tag).is_ok())
        })
    }
}

type Posts = Arc<Mutex<Vec<Post>>>;

/// A webhook receiver on loopback answering `status`; killing it drops every connection.
struct Receiver {
    addr: SocketAddr,
    posts: Posts,
    task: JoinHandle<()>,
}

impl Receiver {
    async fn start(status: StatusCode) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        Self::serve(listener, status, Posts::default())
    }

    fn serve(listener: TcpListener, status: StatusCode, posts: Posts) -> Self {
        let addr = listener.local_addr().unwrap();
        let router = Router::new()
            .route(
                "/hook",
                post(
                    move |State(posts): State<Posts>, headers: HeaderMap, body: Bytes| async move {
                        posts.lock().unwrap().push(Post { headers, body });
                        status
                    },
                ),
            )
            .with_state(posts.clone());
        let task = tokio::spawn(async move {
            // The connections live in this task's set: aborting the task ends them all.
            let mut connections = JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let service = TowerToHyperService::new(router.clone());
                connections
                    .spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), service));
            }
        });
        Self { addr, posts, task }
    }

    fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    fn posts(&self) -> Vec<Post> {
        self.posts.lock().unwrap().clone()
    }

    /// Stops at once, as a crash would; what it received is kept for [`Receiver::restart`].
    fn kill(self) -> (SocketAddr, Posts) {
        self.task.abort();
        (self.addr, self.posts)
    }

    async fn restart(addr: SocketAddr, posts: Posts) -> Self {
        let listener = TcpListener::bind(addr).await.unwrap();
        Self::serve(listener, StatusCode::OK, posts)
    }
}

async fn start_service(
    smtp: &SmtpServer,
    dir: &tempfile::TempDir,
    extra: &[&str],
    secret: Option<String>,
) -> Service {
    start_service_with(smtp, dir, extra, |config| config.webhook_secret = secret).await
}

/// [`start_service`] with the configuration adjusted by `adjust`.
async fn start_service_with(
    smtp: &SmtpServer,
    dir: &tempfile::TempDir,
    extra: &[&str],
    adjust: impl FnOnce(&mut contact_fn::Config),
) -> Service {
    let url = smtp.url();
    let mut args = vec!["--smtp-url", url.as_str()];
    args.extend_from_slice(extra);
    Service::start_with(dir.path(), &args, adjust).await
}

/// Sends the usual contact message, which must be accepted; its answer.
async fn accepted(service: &Service) -> Value {
    let (status, answer) = post_json(
        &reqwest::Client::new(),
        &service.url(FormKind::Contact.path()),
        &support::contact_body(),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    answer
}

#[tokio::test]
async fn every_accepted_message_reaches_each_url_signed_with_its_id() {
    let (first, second) = (
        Receiver::start(StatusCode::OK).await,
        Receiver::start(StatusCode::NO_CONTENT).await,
    );
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    // The second by name: looked up as any host name, the first taken as the address it is.
    let urls = format!(
        "{},{}",
        first.url(),
        second.url().replace("127.0.0.1", "localhost")
    );
    let service = start_service(&smtp, &dir, &["--webhook-url", &urls], Some(secret())).await;
    let client = reqwest::Client::new();
    let mut ids = BTreeSet::new();
    for (kind, body) in [
        (FormKind::Contact, support::contact_body()),
        (FormKind::Enquiry, support::enquiry_body()),
    ] {
        let (status, answer) = post_json(&client, &service.url(kind.path()), &body).await;
        assert_eq!(status, 200, "{answer}");
        ids.insert(answer["id"].as_str().unwrap().to_owned());
    }
    for receiver in [&first, &second] {
        eventually("both notifications", || receiver.posts().len() >= 2).await;
        let posts = receiver.posts();
        assert_eq!(posts.len(), 2, "one post per message");
        for post in &posts {
            assert!(post.verifies(&secret()), "{post:?}");
            assert!(!post.verifies(&format!("whsec_{}", STANDARD.encode([8_u8; 32]))));
            let event = post.json();
            assert_eq!(event["type"], "message.accepted");
            assert_eq!(event["data"]["id"], post.id());
        }
        let got: BTreeSet<String> = posts.iter().map(Post::id).collect();
        assert_eq!(got, ids);
        let contact = posts
            .iter()
            .map(Post::json)
            .find(|e| e["data"]["form"] == "contact")
            .unwrap();
        assert_eq!(contact["data"]["fields"]["name"], "Ada Lovelace");
    }
    // The emails go their own way, one per message plus the ticked newsletter box's.
    smtp.wait_for(3).await;
    service.stop().await;
}

#[tokio::test]
async fn a_receiver_killed_mid_burst_loses_nothing_delays_no_email_and_keeps_one_id_per_message() {
    let receiver = Receiver::start(StatusCode::OK).await;
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let url = receiver.url();
    let service = start_service(&smtp, &dir, &["--webhook-url", &url], Some(secret())).await;
    let client = reqwest::Client::new();
    let path = service.url(FormKind::Contact.path());
    let burst = |n: usize| {
        let (client, path) = (client.clone(), path.clone());
        async move {
            let mut sent = JoinSet::new();
            for i in 0..n {
                let (client, path) = (client.clone(), path.clone());
                let mut body = support::contact_body();
                body["subject"] = json!(format!("Burst {i}"));
                sent.spawn(async move { post_json(&client, &path, &body).await });
            }
            let mut ids = Vec::new();
            while let Some(answer) = sent.join_next().await {
                let (status, answer) = answer.unwrap();
                assert_eq!(status, 200, "{answer}");
                ids.push(answer["id"].as_str().unwrap().to_owned());
            }
            ids
        }
    };
    let mut ids: BTreeSet<String> = burst(10).await.into_iter().collect();
    eventually("the first notifications", || !receiver.posts().is_empty()).await;
    let (addr, posts) = receiver.kill();
    ids.extend(burst(10).await);
    // Every email goes out while the receiver is down.
    smtp.wait_for(20).await;

    let receiver = Receiver::restart(addr, posts).await;
    eventually("a notification of every message", || {
        let got: BTreeSet<String> = receiver.posts().iter().map(Post::id).collect();
        got == ids
    })
    .await;
    let mut bodies: BTreeMap<String, BTreeSet<Bytes>> = BTreeMap::new();
    for post in receiver.posts() {
        assert!(post.verifies(&secret()), "{post:?}");
        let event = post.json();
        assert_eq!(event["data"]["id"], post.id(), "the id names the message");
        bodies
            .entry(post.id())
            .or_default()
            .insert(post.body.clone());
    }
    assert!(
        bodies.values().all(|b| b.len() == 1),
        "a retried notification is the same event"
    );
    assert_eq!(smtp.received().len(), 20, "one email per message");
    service.stop().await;
}

#[tokio::test]
async fn the_slack_format_names_who_company_subject_and_first_lines_and_cannot_mention() {
    let receiver = Receiver::start(StatusCode::OK).await;
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let url = receiver.url();
    let args = ["--webhook-url", &url, "--webhook-format", "slack"];
    let service = start_service(&smtp, &dir, &args, None).await;
    let mut body = support::contact_body();
    body["message"] = json!("<!channel> look\nline 2\nline 3\nline 4\nline 5\nline 6 is left out");
    let (status, answer) = post_json(
        &reqwest::Client::new(),
        &service.url(FormKind::Contact.path()),
        &body,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    eventually("the Slack message", || !receiver.posts().is_empty()).await;
    let text = receiver.posts()[0].json()["text"]
        .as_str()
        .unwrap()
        .to_owned();
    for expected in [
        "*Ada Lovelace*",
        "(Analytical Engines Ltd)",
        "*A new engine*",
        "> &lt;!channel&gt; look",
        "> line 5",
        answer["id"].as_str().unwrap(),
    ] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
    assert!(!text.contains("<!channel>"), "{text}");
    assert!(!text.contains("line 6"), "{text}");
    service.stop().await;
}

#[tokio::test]
async fn a_receiver_that_is_gone_makes_a_dead_letter_and_the_email_still_goes() {
    let receiver = Receiver::start(StatusCode::GONE).await;
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let url = receiver.url();
    let service = start_service(&smtp, &dir, &["--webhook-url", &url], Some(secret())).await;
    let answer = accepted(&service).await;
    smtp.wait_for(1).await;
    let dead = dir.path().join("dead");
    eventually("the notification's dead letter", || {
        !support::files(&dead, "json").is_empty()
    })
    .await;
    let letter: Value =
        serde_json::from_slice(&std::fs::read(&support::files(&dead, "json")[0]).unwrap()).unwrap();
    assert_eq!(letter["webhook"]["url"], url.as_str());
    assert_eq!(letter["webhook"]["eventId"], answer["id"]);
    assert_eq!(letter["lastError"], "the webhook answered 410");
    assert_eq!(receiver.posts().len(), 1, "not retried");
    service.stop().await;
}

#[tokio::test]
async fn a_confirmed_subscription_is_posted_when_the_webhooks_are_to_hear_of_them() {
    let receiver = Receiver::start(StatusCode::OK).await;
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let url = receiver.url();
    let args = ["--webhook-url", &url, "--webhook-newsletter"];
    let service = start_service(&smtp, &dir, &args, Some(secret())).await;
    let subscribe = service.url(FormKind::Newsletter.path());
    let body = json!({ "email": "reader@example.org" });
    assert_eq!(
        post_json(&reqwest::Client::new(), &subscribe, &body)
            .await
            .0,
        200
    );
    let mail = smtp.wait_for(1).await.remove(0);
    assert!(receiver.posts().is_empty(), "asking is not subscribing");
    for _ in 0..2 {
        assert_eq!(support::confirm(&mail).await, 303, "twice is harmless");
    }
    eventually("the subscription's notification", || {
        !receiver.posts().is_empty()
    })
    .await;
    let post = &receiver.posts()[0];
    assert!(post.verifies(&secret()));
    let event = post.json();
    assert_eq!(event["type"], "subscription.confirmed");
    assert_eq!(event["data"]["address"], "reader@example.org");
    assert_eq!(event["data"]["source"], "newsletter");
    assert_eq!(event["data"]["id"], post.id());
    service.stop().await;
    assert_eq!(receiver.posts().len(), 1, "confirming twice notifies once");
}

/// A receiver that answers only the first request of each connection and hangs up on the next
/// one unanswered, without `Connection: close`: what a pooled connection meets when the
/// receiver (or a proxy before it) closed it while it sat idle. Counts the answered posts.
/// Reads one request, its head and its body (by its `content-length`), from `stream`.
async fn read_request(stream: &mut tokio::io::BufReader<tokio::net::TcpStream>) {
    use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _};

    let (mut line, mut length) = (String::new(), 0);
    loop {
        line.clear();
        if stream.read_line(&mut line).await.unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await.unwrap();
}

/// A receiver on a raw TCP socket: reads each request, counts it, then hands the connection
/// to `answer`.
async fn raw_receiver<F, A>(answer: F) -> (String, Arc<Mutex<usize>>)
where
    F: Fn(tokio::io::BufReader<tokio::net::TcpStream>) -> A + Clone + Send + 'static,
    A: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let posts = Arc::new(Mutex::new(0));
    let counted = posts.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (counted, answer) = (counted.clone(), answer.clone());
            tokio::spawn(async move {
                let mut stream = tokio::io::BufReader::new(stream);
                read_request(&mut stream).await;
                *counted.lock().unwrap() += 1;
                answer(stream).await;
            });
        }
    });
    (url, posts)
}

/// A receiver that answers only the first request of each connection.
async fn receiver_closing_idle_connections() -> (String, Arc<Mutex<usize>>) {
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _};

    raw_receiver(|mut stream| async move {
        let reply = b"HTTP/1.1 204 No Content\r\n\r\n";
        stream.get_mut().write_all(reply).await.unwrap();
        // The next request on this connection is read, then the connection dropped.
        let _ = stream.read_line(&mut String::new()).await;
    })
    .await
}

#[tokio::test]
async fn a_connection_the_receiver_closed_while_idle_costs_no_retry_delay() {
    let (url, answered) = receiver_closing_idle_connections().await;
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    // A failed attempt would wait an hour: every post must go through on its first.
    let service = start_service_with(&smtp, &dir, &["--webhook-url", &url], |config| {
        config.webhook_secret = Some(secret());
        config.retry_initial = std::time::Duration::from_secs(3600);
        config.retry_max = std::time::Duration::from_secs(7200);
    })
    .await;
    for i in 1..=3 {
        accepted(&service).await;
        eventually(&format!("notification {i}"), || {
            *answered.lock().unwrap() == i
        })
        .await;
    }
    service.stop().await;
}

/// A receiver that answers every post `200 OK` and then streams its body without end.
async fn receiver_with_an_endless_answer() -> (String, Arc<Mutex<usize>>) {
    use tokio::io::AsyncWriteExt as _;

    raw_receiver(|mut stream| async move {
        let stream = stream.get_mut();
        let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        if stream.write_all(head).await.is_err() {
            return;
        }
        let chunk = format!("{:x}\r\n{}\r\n", 16 * 1024, "x".repeat(16 * 1024));
        while stream.write_all(chunk.as_bytes()).await.is_ok() {}
    })
    .await
}

#[tokio::test]
async fn a_receiver_that_answers_ok_with_an_endless_body_has_taken_the_event() {
    let (url, posts) = receiver_with_an_endless_answer().await;
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    // A post counted as failed would go again within a second.
    let retry = std::time::Duration::from_millis(200);
    let service = start_service_with(&smtp, &dir, &["--webhook-url", &url], |config| {
        config.webhook_secret = Some(secret());
        config.webhook_timeout = std::time::Duration::from_millis(500);
        config.retry_initial = retry;
        config.retry_max = retry;
    })
    .await;
    for _ in 0..2 {
        accepted(&service).await;
    }
    eventually("both notifications", || *posts.lock().unwrap() >= 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(
        *posts.lock().unwrap(),
        2,
        "the 200 was the answer: nothing is posted again"
    );
    service.stop().await;
}
