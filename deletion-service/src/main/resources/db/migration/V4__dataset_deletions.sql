-- "Deleted but still on disk" per dataset (purge/): the spec of the last task seen for each dataset, since the
-- service has no registry of its own and a store's purge status is read per table. When the last delete was
-- executed is not copied here: it is the latest processed batch of the dataset that deleted rows.
CREATE TABLE dataset_deletions (
    dataset      TEXT        PRIMARY KEY,
    store_kind   TEXT        NOT NULL,
    spec         JSONB       NOT NULL,
    spec_seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The latest batch that deleted rows, per dataset, without scanning every batch ever processed.
CREATE INDEX processed_batches_last_delete ON processed_batches (dataset, first_processed_at) WHERE rows_deleted > 0;
