-- Re-applying erasures after a restore: the deletion log's erasures of a dataset in a window (or since a
-- restored snapshot's cut-off) published again as deletion tasks at their ORIGINAL cut-offs, so rows written
-- after an erasure survive. Who asked and when is kept (DESIGN invariant 10). Keys are not stored here: the
-- deletion log (30-day TTL) stays the only copy of what was erased (invariant 8).
CREATE TABLE reapplications (
    id                     UUID        PRIMARY KEY,
    -- the origin of the published tasks: reapply-<hash of dataset, window or snapshot, client_request_id>,
    -- so a retried request publishes the same tasks and deletion applies them once (invariant 4)
    request_id             TEXT        NOT NULL,
    client_request_id      TEXT        NOT NULL,
    requested_by           TEXT        NOT NULL,
    reason                 TEXT        NOT NULL,
    dataset                TEXT        NOT NULL,
    dataset_spec           JSONB       NOT NULL,
    snapshot               TEXT,
    snapshot_cutoff_micros BIGINT,
    window_from            TIMESTAMPTZ NOT NULL,
    window_to              TIMESTAMPTZ NOT NULL CHECK (window_from < window_to),
    dry_run                BOOLEAN     NOT NULL,
    status                 TEXT        NOT NULL DEFAULT 'RUNNING'
                                       CHECK (status IN ('RUNNING', 'DRY_RUN', 'PUBLISHED', 'FAILED')),
    requested_at           TIMESTAMPTZ NOT NULL,
    completed_at           TIMESTAMPTZ,
    records_read           BIGINT      NOT NULL DEFAULT 0 CHECK (records_read >= 0),
    purged_records         BIGINT      NOT NULL DEFAULT 0 CHECK (purged_records >= 0),
    keys_total             BIGINT      NOT NULL DEFAULT 0 CHECK (keys_total >= 0),
    tasks_total            BIGINT      NOT NULL DEFAULT 0 CHECK (tasks_total >= 0),
    warning                TEXT,
    failure                TEXT
);

CREATE INDEX reapplications_by_request ON reapplications (request_id, requested_at);
CREATE INDEX reapplications_by_time ON reapplications (requested_at DESC);

-- One row per original cut-off: how many keys are (in a dry-run: would be) deleted again at it, by which tasks.
CREATE TABLE reapplication_groups (
    reapplication_id UUID   NOT NULL REFERENCES reapplications (id),
    cutoff_micros    BIGINT NOT NULL,
    keys             BIGINT NOT NULL CHECK (keys > 0),
    task_ids         TEXT[] NOT NULL,
    PRIMARY KEY (reapplication_id, cutoff_micros)
);
