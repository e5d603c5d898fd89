-- The dataset registry: the current spec of each dataset, and every revision of it.
CREATE TABLE identifier_sources (
    name        TEXT PRIMARY KEY,
    spec        JSONB       NOT NULL,
    revision    INT         NOT NULL,
    created_by  TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_by  TEXT        NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE datasets (
    name          TEXT PRIMARY KEY,
    owner_team    TEXT        NOT NULL,
    store_kind    TEXT        NOT NULL,
    spec          JSONB       NOT NULL,
    enabled       BOOLEAN     NOT NULL,
    revision      INT         NOT NULL,
    registered_by TEXT        NOT NULL,
    registered_at TIMESTAMPTZ NOT NULL,
    updated_by    TEXT        NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    -- when the dataset's cron next starts a run; the scheduler replica that locks the row starts it
    next_run_at   TIMESTAMPTZ
);
CREATE INDEX datasets_due ON datasets (next_run_at) WHERE enabled;

CREATE TABLE dataset_revisions (
    dataset    TEXT        NOT NULL REFERENCES datasets (name),
    revision   INT         NOT NULL,
    change     TEXT        NOT NULL,
    spec       JSONB       NOT NULL,
    enabled    BOOLEAN     NOT NULL,
    changed_by TEXT        NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (dataset, revision)
);

-- Runs: the spec is frozen at the start; state moves only forward (version guards concurrent moves).
CREATE TABLE runs (
    id             TEXT PRIMARY KEY,
    dataset        TEXT        NOT NULL REFERENCES datasets (name),
    spec           JSONB       NOT NULL,
    state          TEXT        NOT NULL,
    version        INT         NOT NULL,
    dry_run        BOOLEAN     NOT NULL,
    triggered_by   TEXT        NOT NULL,
    cutoff_micros  BIGINT,
    total_rows     BIGINT,
    candidate_count BIGINT,
    final_count    BIGINT,
    task_count     INT,
    counts         JSONB       NOT NULL DEFAULT '{}'::jsonb,
    steps          JSONB       NOT NULL DEFAULT '{}'::jsonb,
    approval_reason TEXT,
    decided_by     TEXT,
    failure_reason TEXT,
    receipt        JSONB,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);
-- runs of one dataset never overlap
CREATE UNIQUE INDEX runs_one_active_per_dataset ON runs (dataset)
    WHERE state NOT IN ('COMPLETED', 'FAILED', 'CANCELLED', 'DRY_RUN_COMPLETED');
CREATE INDEX runs_dataset_created ON runs (dataset, created_at DESC);

-- Each batch result counted once, whatever the delivery order or count.
CREATE TABLE run_batches (
    run_id      TEXT        NOT NULL REFERENCES runs (id),
    batch_id    TEXT        NOT NULL,
    task_id     TEXT        NOT NULL,
    deleted     BIGINT      NOT NULL,
    skipped_newer BIGINT    NOT NULL,
    already_absent BIGINT   NOT NULL,
    failed      BIGINT      NOT NULL,
    read_back   TEXT        NOT NULL,
    still_present BIGINT    NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_id, batch_id)
);

-- Events already applied: a redelivered event is counted, never re-applied.
CREATE TABLE processed_events (
    event_id    UUID PRIMARY KEY,
    event_type  TEXT        NOT NULL,
    run_id      TEXT,
    deliveries  INT         NOT NULL DEFAULT 1,
    received_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE kill_switches (
    scope      TEXT PRIMARY KEY,
    active     BOOLEAN     NOT NULL,
    changed_by TEXT        NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL,
    reason     TEXT        NOT NULL
);
