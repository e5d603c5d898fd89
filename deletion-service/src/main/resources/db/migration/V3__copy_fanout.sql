-- Copies are deleted after their source by copy tasks published once the source rows are gone. The
-- source values a copy's key is made of are kept here from the write-ahead step until the copy tasks
-- are published, so a crash between the source delete and the publish still reaches every copy.
-- They are personal data: the rows are removed as soon as the batch is reported.
CREATE TABLE batch_copy_sources (
    batch_id    TEXT  NOT NULL,
    source_key  TEXT  NOT NULL,
    copy_values JSONB NOT NULL,
    PRIMARY KEY (batch_id, source_key)
);

-- What a redelivered batch reports again.
ALTER TABLE processed_batches
    ADD COLUMN copy_tasks  INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN keys_digest TEXT;
