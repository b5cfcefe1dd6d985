//! A self-hosted proof of work in ALTCHA's format, so ALTCHA's widget (or any solver of it)
//! works against `GET /challenge`.
//!
//! A challenge is `{algorithm: "SHA-256", challenge, maxnumber, salt, signature}`: the
//! `challenge` is the hex SHA-256 of `salt` followed by a secret random number up to
//! `maxnumber`, the `salt` carries its expiry (`?expires=<Unix seconds>`), and the `signature`
//! is the hex HMAC-SHA-256 of the challenge under the service's key, so no state is kept until
//! it is solved. The client finds the number and sends back, in the `altcha` field, base64 JSON
//! of `{algorithm, challenge, number, salt, signature}`. A solution counts once: its challenge
//! is spent in the store (shared by replicas with PostgreSQL) until it expires.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ring::rand::{SecureRandom as _, SystemRandom};
use ring::{digest, hmac};
use serde::{Deserialize, Serialize};

use crate::hex::{hex, unhex};
use crate::store::ChallengeStore;

/// The only algorithm offered and accepted.
pub const ALGORITHM: &str = "SHA-256";

/// A challenge, as `GET /challenge` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// Always [`ALGORITHM`].
    pub algorithm: String,
    /// Hex SHA-256 of `salt` and the secret number.
    pub challenge: String,
    /// The largest number to try.
    pub maxnumber: u64,
    /// Random, with `?expires=<Unix seconds>`.
    pub salt: String,
    /// Hex HMAC-SHA-256 of `challenge`.
    pub signature: String,
}

/// A solution, as the `altcha` field carries it (base64 of this JSON).
#[derive(Debug, Clone, Deserialize)]
struct Solution {
    algorithm: String,
    challenge: String,
    number: u64,
    salt: String,
    signature: String,
}

/// Issues and checks challenges.
#[derive(Debug)]
pub struct Altcha {
    key: hmac::Key,
    max_number: u64,
    expiry: Duration,
}

impl Altcha {
    /// Signs with `key`; numbers up to `max_number`; solutions expire after `expiry`.
    pub fn new(key: hmac::Key, max_number: u64, expiry: Duration) -> Self {
        Self {
            key,
            max_number: max_number.max(1),
            expiry,
        }
    }

    /// A new challenge, valid from `now_ms` for the expiry time.
    pub fn challenge(&self, now_ms: u64) -> anyhow::Result<Challenge> {
        let random = SystemRandom::new();
        let mut bytes = [0_u8; 20];
        random
            .fill(&mut bytes)
            .map_err(|_| anyhow::anyhow!("the system has no random numbers"))?;
        let [salt @ .., n0, n1, n2, n3, n4, n5, n6, n7] = bytes;
        let number = u64::from_le_bytes([n0, n1, n2, n3, n4, n5, n6, n7]) % (self.max_number + 1);
        let expires = (now_ms / 1000).saturating_add(self.expiry.as_secs());
        let salt = format!("{}?expires={expires}", hex(&salt));
        let challenge =
            hex(digest::digest(&digest::SHA256, format!("{salt}{number}").as_bytes()).as_ref());
        let signature = hex(hmac::sign(&self.key, challenge.as_bytes()).as_ref());
        Ok(Challenge {
            algorithm: ALGORITHM.to_owned(),
            challenge,
            maxnumber: self.max_number,
            salt,
            signature,
        })
    }

    /// Whether `field` (the `altcha` value) solves a genuine, unexpired challenge not solved
    /// before; a valid solution is spent in `store`, so it counts once.
    pub async fn verify(
        &self,
        field: &str,
        store: &dyn ChallengeStore,
        now_ms: u64,
    ) -> anyhow::Result<bool> {
        let Some(solution) = self.check(field, now_ms) else {
            return Ok(false);
        };
        store.spend(&solution.0, solution.1).await
    }

    /// The challenge and its expiry (ms) when `field` is a correct, genuine, unexpired solution.
    fn check(&self, field: &str, now_ms: u64) -> Option<(String, u64)> {
        let json = BASE64.decode(field.trim()).ok()?;
        let solution: Solution = serde_json::from_slice(&json).ok()?;
        if solution.algorithm != ALGORITHM || solution.number > self.max_number {
            return None;
        }
        let tag = unhex(&solution.signature)?;
        hmac::verify(&self.key, solution.challenge.as_bytes(), &tag).ok()?;
        let hashed = digest::digest(
            &digest::SHA256,
            format!("{}{}", solution.salt, solution.number).as_bytes(),
        );
        if hex(hashed.as_ref()) != solution.challenge {
            return None;
        }
        let expires_s: u64 = solution
            .salt
            .split_once('?')
            .map(|(_, query)| query)
            .into_iter()
            .flat_map(|query| form_urlencoded::parse(query.as_bytes()))
            .find(|(key, _)| key == "expires")?
            .1
            .parse()
            .ok()?;
        let expires_ms = expires_s.saturating_mul(1000);
        (expires_ms > now_ms).then_some((solution.challenge, expires_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn altcha() -> Altcha {
        Altcha::new(
            hmac::Key::new(hmac::HMAC_SHA256, b"a key for the tests only, 32 bytes"),
            500,
            Duration::from_secs(60),
        )
    }

    /// Finds the number as a client does, and encodes the solution as the widget sends it.
    fn solve(challenge: &Challenge) -> String {
        let number = (0..=challenge.maxnumber)
            .find(|n| {
                let hashed =
                    digest::digest(&digest::SHA256, format!("{}{n}", challenge.salt).as_bytes());
                hex(hashed.as_ref()) == challenge.challenge
            })
            .expect("a number solves it");
        let solution = serde_json::json!({
            "algorithm": challenge.algorithm, "challenge": challenge.challenge,
            "number": number, "salt": challenge.salt, "signature": challenge.signature,
        });
        BASE64.encode(solution.to_string())
    }

    #[test]
    fn a_solution_checks_out_until_it_expires_or_is_touched() {
        let altcha = altcha();
        let now = 1_800_000_000_000;
        let challenge = altcha.challenge(now).expect("a challenge");
        let field = solve(&challenge);
        let (spent, expires) = altcha.check(&field, now).expect("valid");
        assert_eq!(spent, challenge.challenge);
        assert_eq!(expires, now + 60_000);
        assert!(altcha.check(&field, now + 60_000).is_none(), "expired");
        let other = Altcha::new(
            hmac::Key::new(hmac::HMAC_SHA256, b"another key"),
            500,
            Duration::from_secs(60),
        );
        assert!(
            other.check(&field, now).is_none(),
            "signed with another key"
        );
        let json = String::from_utf8(BASE64.decode(&field).expect("base64")).expect("text");
        let later = json.replace(
            &format!("expires={}", now / 1000 + 60),
            "expires=9999999999",
        );
        assert!(
            altcha.check(&BASE64.encode(later), now).is_none(),
            "a longer expiry is no longer the challenge"
        );
        assert!(altcha.check("not base64 at all", now).is_none());
    }
}
