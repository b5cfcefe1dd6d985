-- Auto-replies sent, one row per address and day, so that every replica sends an address at
-- most one a day; forgotten the next day. The address is kept as its SHA-256 only.
CREATE TABLE auto_replies (
    address_key text   NOT NULL,
    day         bigint NOT NULL,
    PRIMARY KEY (address_key, day)
);
