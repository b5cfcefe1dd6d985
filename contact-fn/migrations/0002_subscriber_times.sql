-- The subscribers as the service keeps them: its own clock in ms since the Unix epoch (as
-- the file store's records), so that every store applies the same rules to the same times.
-- No release wrote these tables before this migration, so their rows are not carried over.
DELETE FROM subscribers;
ALTER TABLE subscribers
    DROP COLUMN confirmed_at,
    ADD COLUMN requested_ms    bigint,      -- the latest request while pending
    ADD COLUMN confirmed_ms    bigint,      -- when the owner followed the confirmation link
    ADD COLUMN unsubscribed_ms bigint;      -- when it left ('suppressed')
CREATE INDEX subscribers_confirmed ON subscribers (confirmed_ms, address) WHERE status = 'confirmed';
CREATE INDEX subscribers_pending ON subscribers (requested_ms) WHERE status = 'pending';

-- The confirmation emails of the last 24 hours, deleted with their address.
DROP TABLE subscriber_sends;
CREATE TABLE subscriber_sends (
    address text NOT NULL REFERENCES subscribers (address) ON DELETE CASCADE,
    sent_ms bigint NOT NULL
);
CREATE INDEX subscriber_sends_address ON subscriber_sends (address, sent_ms);
