-- Proof-of-work challenges already solved, so that a solution counts once on any replica;
-- forgotten once expired (a solution is refused by then anyway).
CREATE TABLE challenges_spent (
    challenge  text PRIMARY KEY,
    expires_ms bigint NOT NULL
);
CREATE INDEX challenges_spent_expires ON challenges_spent (expires_ms);
