-- The dataset spec a recovery restores with (records do not carry it), progress counters, and one
-- outcome per deletion record (DESIGN invariants 3 and 10). rows_restored counts RESTORED (in a dry-run:
-- RESTORABLE); conflicts counts NEWER_DATA_KEPT (in a dry-run: CONFLICT).
ALTER TABLE recovery_requests
    ADD COLUMN dataset       TEXT,
    ADD COLUMN dataset_spec  JSONB,
    ADD COLUMN started_at    TIMESTAMPTZ,
    ADD COLUMN records_total BIGINT NOT NULL DEFAULT 0 CHECK (records_total >= 0),
    ADD COLUMN records_done  BIGINT NOT NULL DEFAULT 0 CHECK (records_done >= 0),
    ADD COLUMN expired       BIGINT NOT NULL DEFAULT 0 CHECK (expired >= 0),
    ADD COLUMN failed        BIGINT NOT NULL DEFAULT 0 CHECK (failed >= 0),
    ADD COLUMN purged        BIGINT NOT NULL DEFAULT 0 CHECK (purged >= 0),
    ADD COLUMN not_in_log    BIGINT NOT NULL DEFAULT 0 CHECK (not_in_log >= 0);

CREATE TABLE recovery_outcomes (
    request_id  UUID        NOT NULL REFERENCES recovery_requests (id),
    record_id   TEXT        NOT NULL,
    primary_key JSONB,
    outcome     TEXT        NOT NULL CHECK (outcome IN ('RESTORABLE', 'CONFLICT', 'RESTORED', 'NEWER_DATA_KEPT',
                                                        'EXPIRED', 'FAILED', 'PURGED', 'NOT_IN_LOG')),
    detail      TEXT,
    deleted_at  TIMESTAMPTZ,
    run_id      TEXT,
    PRIMARY KEY (request_id, record_id)
);
