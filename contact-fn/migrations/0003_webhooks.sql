-- Webhook notifications wait in the outbox beside the emails: a row with a webhook_url is
-- posted there (its message column is the request body), signed with webhook_id.
ALTER TABLE outbox
    ADD COLUMN webhook_url text,
    ADD COLUMN webhook_id  text;
ALTER TABLE dead_letters
    ADD COLUMN webhook_url text,
    ADD COLUMN webhook_id  text;
