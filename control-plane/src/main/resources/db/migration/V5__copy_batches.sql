-- Copies (issue 9): once a source batch's rows are gone, the deletion service publishes one copy task per
-- registered copy; the run waits for those too. A source batch says how many copy tasks it published
-- (copy_tasks); a copy's batch names its source (copy_of) and carries the copy's view name in dataset
-- (<source>--<copy>). keys_digest is the batch's SHA-256 over the keys it deleted, for the receipt.
ALTER TABLE run_batches
    ADD COLUMN dataset     TEXT,
    ADD COLUMN copy_of     TEXT,
    ADD COLUMN copy_tasks  INT NOT NULL DEFAULT 0,
    ADD COLUMN keys_digest TEXT;

-- Batches that failed for good (BatchFailed, not retryable), each recorded once. A failed copy batch fails
-- the run once every source batch and every other copy task has reported, so no count is lost.
CREATE TABLE run_batch_failures (
    run_id      TEXT        NOT NULL REFERENCES runs (id),
    batch_id    TEXT        NOT NULL,
    task_id     TEXT        NOT NULL,
    dataset     TEXT        NOT NULL,
    copy_of     TEXT,
    reason      TEXT        NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_id, batch_id)
);
