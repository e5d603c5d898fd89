-- Idempotence (DESIGN invariant 4): a deletion batch is executed once per scope. The key is the batch id
-- together with a hash of what it covers (task + dataset + key set); a re-delivered batch only bumps
-- the delivery count and its recorded result is reported again.
CREATE TABLE processed_batches (
    batch_id           TEXT        NOT NULL,
    scope_hash         TEXT        NOT NULL,
    run_id             TEXT,
    dataset            TEXT        NOT NULL,
    rows_deleted       BIGINT      NOT NULL DEFAULT 0 CHECK (rows_deleted >= 0),
    rows_skipped       BIGINT      NOT NULL DEFAULT 0 CHECK (rows_skipped >= 0),
    first_processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    deliveries         INTEGER     NOT NULL DEFAULT 1 CHECK (deliveries >= 1),
    PRIMARY KEY (batch_id, scope_hash)
);

CREATE INDEX processed_batches_run ON processed_batches (run_id);
