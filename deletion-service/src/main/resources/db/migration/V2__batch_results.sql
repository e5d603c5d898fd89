-- The result of a batch is kept with it, so a redelivered batch reports the same counts again.
ALTER TABLE processed_batches
    ADD COLUMN task_id       TEXT,
    ADD COLUMN already_absent BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN still_present BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN records_logged BIGINT NOT NULL DEFAULT 0;
