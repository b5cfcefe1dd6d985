-- The files sent with a message. The record lists them (JSON: name, contentType, size, sha256,
-- in order) and counts their bytes for the quota; the bytes are rows of attachment_chunks, at
-- most 256 KiB each, written in the transaction that inserts the message (so an upload is
-- never held whole in memory) and deleted with it when it is delivered or purged.
ALTER TABLE outbox
    ADD COLUMN attachments text,
    ADD COLUMN attachment_bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE dead_letters
    ADD COLUMN attachments text,
    ADD COLUMN attachment_bytes bigint NOT NULL DEFAULT 0;
CREATE TABLE attachment_chunks (
    message_id text NOT NULL,       -- the id of the message, waiting or dead
    part       integer NOT NULL,    -- the file's place in the record's list, from 0
    seq        integer NOT NULL,    -- the chunk's place in the file, from 0
    data       bytea NOT NULL,
    PRIMARY KEY (message_id, part, seq)
);
