//! Per-client rate limiting, and finding out who the client is.
//!
//! A client is its IP address (an IPv6 client its /64, since one host usually holds a whole
//! /64). Behind a reverse proxy the peer is the proxy, so `X-Forwarded-For` is believed,
//! but only when the peer is a configured trusted proxy.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

use axum::http::HeaderMap;
use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use ipnet::IpNet;

/// A token bucket per client: `burst` submissions at once, one more every `refill`.
#[derive(Debug)]
pub struct RateLimiter {
    buckets: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
}

impl RateLimiter {
    /// A limiter allowing `burst` submissions at once and one more every `refill`.
    pub fn new(burst: u32, refill: Duration) -> Self {
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(refill.max(Duration::from_nanos(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        Self {
            buckets: DefaultKeyedRateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        }
    }

    /// Takes one submission from the client's bucket, or says how long to wait.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        self.buckets
            .check_key(&bucket_key(client))
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Forgets clients whose bucket is full again, to bound memory.
    pub fn forget_idle(&self) {
        self.buckets.retain_recent();
        self.buckets.shrink_to_fit();
    }
}

/// Counts the request bodies each client is sending right now, to bound them per client.
#[derive(Debug)]
pub struct BodiesInFlight {
    max: u32,
    counts: Mutex<HashMap<IpAddr, u32>>,
}

/// One body being read; the count goes down when it is dropped.
#[derive(Debug)]
pub struct BodyTurn<'a> {
    bodies: &'a BodiesInFlight,
    client: IpAddr,
}

impl BodiesInFlight {
    /// At most `max` bodies per client at once.
    pub fn new(max: u32) -> Self {
        Self {
            max: max.max(1),
            counts: Mutex::default(),
        }
    }

    /// Counts one more body of `client`, or `None` when it already sends the most allowed.
    pub fn enter(&self, client: IpAddr) -> Option<BodyTurn<'_>> {
        let client = bucket_key(client);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let count = counts.entry(client).or_default();
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(BodyTurn {
            bodies: self,
            client,
        })
    }
}

impl Drop for BodyTurn<'_> {
    fn drop(&mut self) {
        let mut counts = self.bodies.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = counts.get_mut(&self.client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.client);
            }
        }
    }
}

fn bucket_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let [a, b, c, d, ..] = v6.segments();
                IpAddr::V6(Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
            }
        },
    }
}

/// The client's address: the peer, or, when the peer is a trusted proxy, the nearest
/// address in `X-Forwarded-For` that is not itself a trusted proxy.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    // Each proxy appends the address it received from, so read from the right.
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !is_trusted(&ip) {
                    break;
                }
            }
            // Garbage cannot be trusted further; the last good address is the client.
            Err(_) => break,
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_str(value).expect("header"),
        );
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn forwarded_for_is_ignored_from_an_untrusted_peer() {
        let trusted = ["10.0.0.0/8".parse().expect("net")];
        assert_eq!(
            client_ip(ip("203.0.113.9"), &forwarded("198.51.100.1"), &trusted),
            ip("203.0.113.9")
        );
        assert_eq!(
            client_ip(ip("10.0.0.2"), &forwarded("198.51.100.1"), &[]),
            ip("10.0.0.2")
        );
    }

    #[test]
    fn forwarded_for_is_read_from_the_right_past_trusted_proxies() {
        let trusted = ["10.0.0.0/8".parse().expect("net")];
        let headers = forwarded("1.1.1.1, 198.51.100.7, 10.0.0.5");
        assert_eq!(
            client_ip(ip("10.0.0.2"), &headers, &trusted),
            ip("198.51.100.7")
        );
        assert_eq!(
            client_ip(ip("10.0.0.2"), &forwarded("garbage, 10.0.0.7"), &trusted),
            ip("10.0.0.7")
        );
        assert_eq!(
            client_ip(ip("10.0.0.2"), &HeaderMap::new(), &trusted),
            ip("10.0.0.2")
        );
    }

    #[test]
    fn burst_then_limited_with_a_wait() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60));
        let client = ip("192.0.2.1");
        assert!(limiter.check(client).is_ok());
        assert!(limiter.check(client).is_ok());
        let wait = limiter.check(client).expect_err("third is limited");
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(60),
            "{wait:?}"
        );
        assert!(
            limiter.check(ip("192.0.2.2")).is_ok(),
            "other clients keep their bucket"
        );
    }

    #[test]
    fn bodies_in_flight_are_bounded_per_client_and_freed_when_done() {
        let bodies = BodiesInFlight::new(2);
        let first = bodies.enter(ip("192.0.2.1")).expect("first");
        let _second = bodies.enter(ip("192.0.2.1")).expect("second");
        assert!(bodies.enter(ip("192.0.2.1")).is_none(), "third is refused");
        assert!(bodies.enter(ip("192.0.2.2")).is_some(), "others are not");
        drop(first);
        assert!(bodies.enter(ip("192.0.2.1")).is_some(), "freed when done");
    }

    #[test]
    fn an_ipv6_client_is_its_slash_64() {
        let limiter = RateLimiter::new(1, Duration::from_secs(60));
        assert!(limiter.check(ip("2001:db8:1:2::1")).is_ok());
        assert!(limiter.check(ip("2001:db8:1:2::ffff")).is_err());
        assert!(limiter.check(ip("2001:db8:1:3::1")).is_ok());
    }
}
