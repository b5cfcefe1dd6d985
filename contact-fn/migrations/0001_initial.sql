-- contact-fn's tables. Times named *_ms are milliseconds since the Unix epoch, the clock of the
-- file store's records; claims and audit times use the database's clock.

-- Accepted messages until the mail server took them (one row per outbox/<id>.json).
CREATE TABLE outbox (
    id              text PRIMARY KEY,       -- the Message-ID's left part, answered to the client
    kind            text NOT NULL,          -- the form (or other source), as serde names it
    created_ms      bigint NOT NULL,
    attempts        integer NOT NULL,       -- failed delivery attempts so far
    next_attempt_ms bigint NOT NULL,
    last_error      text,
    envelope_from   text NOT NULL,
    envelope_to     text[] NOT NULL,
    message         text NOT NULL,          -- the complete RFC 5322 message
    claimed_by      text,                   -- the replica delivering it right now
    lease_until     timestamptz             -- then another replica may take it over
);
CREATE INDEX outbox_due ON outbox (next_attempt_ms);

-- Messages that will never be delivered, with the reason (one row per dead/<id>.json).
CREATE TABLE dead_letters (
    id              text PRIMARY KEY,
    kind            text NOT NULL,
    created_ms      bigint NOT NULL,
    attempts        integer NOT NULL,
    next_attempt_ms bigint NOT NULL,
    last_error      text,
    envelope_from   text NOT NULL,
    envelope_to     text[] NOT NULL,
    message         text NOT NULL,
    buried_at       timestamptz NOT NULL DEFAULT now()
);

-- Idempotency-Key records, shared by every replica.
CREATE TABLE idempotency_keys (
    id          text PRIMARY KEY,           -- the message id the key stands for
    fingerprint text NOT NULL,              -- of the first submission under the key
    created_ms  bigint NOT NULL
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_ms);

-- Newsletter subscribers (double opt-in), one row per address, kept as a suppression record
-- after an unsubscribe.
CREATE TABLE subscribers (
    address         text PRIMARY KEY,       -- lower-cased
    status          text NOT NULL CHECK (status IN ('pending', 'confirmed', 'suppressed')),
    confirmed_at    timestamptz,
    consent_text    text,                   -- the consent shown when subscribing
    consent_version text,
    source          text,                   -- the form it came from
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Every confirmation email sent to an address, for the per-address limits.
CREATE TABLE subscriber_sends (
    address text NOT NULL,
    sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriber_sends_address ON subscriber_sends (address, sent_at);
