-- An email carries its webhook notifications until it is taken for delivery: they are posted
-- beside it, and only those that fail get rows of their own (webhook_url set). One row per
-- message, however many receivers: the URLs and the request body, the same for every URL.
ALTER TABLE outbox
    ADD COLUMN notify_urls text[],
    ADD COLUMN notify_body text;
ALTER TABLE dead_letters
    ADD COLUMN notify_urls text[],
    ADD COLUMN notify_body text;
