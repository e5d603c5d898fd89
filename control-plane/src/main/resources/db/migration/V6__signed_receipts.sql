-- Proof of deletion (issue 12): a receipt is signed over its exact bytes, so those bytes are kept as
-- issued (receipt stays the queryable JSONB form of the same document). receipt_signature holds the
-- signature document {"alg","keyId","signature"} as served. spec_revision is the registry revision the
-- run froze, for the receipt.
ALTER TABLE runs
    ADD COLUMN spec_revision     INT,
    ADD COLUMN receipt_body      BYTEA,
    ADD COLUMN receipt_signature TEXT;
