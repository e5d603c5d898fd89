-- Forward deletion (issue 10). deletion_requests is partitioned by month on created_at; the
-- control plane's RequestPartitions creates months ahead and drops months past their retention.
CREATE TABLE deletion_requests (
    id              text        NOT NULL,
    created_at      timestamptz NOT NULL,
    aggregate_type  text        NOT NULL,
    aggregate_id    text        NOT NULL,
    version         bigint      NOT NULL,
    -- HELD (burst, waiting for an OPERATOR) -> TOMBSTONED -> PURGED; ALIVE is an entity with no request
    state           text        NOT NULL,
    -- the cut-off of every delete of this request
    tombstoned_at   timestamptz NOT NULL,
    -- when its tasks went to the outbox; the reconciler's watermark runs over this
    published_at    timestamptz,
    purged_at       timestamptz,
    event_id        uuid        NOT NULL,
    origin_chain_id uuid        NOT NULL,
    child_ids       jsonb       NOT NULL,
    requested_by    text        NOT NULL,
    held_reason     text,
    approved_by     text,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (id, created_at)
) PARTITION BY RANGE (created_at);

CREATE INDEX deletion_requests_by_id ON deletion_requests (id);
CREATE INDEX deletion_requests_unresolved ON deletion_requests (published_at, id) WHERE state = 'TOMBSTONED';
CREATE INDEX deletion_requests_by_type ON deletion_requests (aggregate_type, created_at);

DO $$
DECLARE
    month timestamptz := date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
BEGIN
    FOR i IN 0..1 LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF deletion_requests FOR VALUES FROM (%L) TO (%L)',
                       'deletion_requests_' || to_char((month + make_interval(months => i)) AT TIME ZONE 'UTC', 'YYYY_MM'),
                       month + make_interval(months => i), month + make_interval(months => i + 1));
    END LOOP;
END $$;

-- The current version of each identifier: the compare-and-set that drops out-of-order events.
CREATE TABLE forward_entities (
    aggregate_type text        NOT NULL,
    aggregate_id   text        NOT NULL,
    version        bigint      NOT NULL,
    event_id       uuid        NOT NULL,
    request_id     text        NOT NULL,
    updated_at     timestamptz NOT NULL,
    PRIMARY KEY (aggregate_type, aggregate_id)
);

-- One row per (request, dataset). The unique (event_id, dataset, key_set) is the idempotency record of
-- the effect (DESIGN invariant 4): an event's deletion of one key set in one dataset is applied once.
CREATE TABLE forward_targets (
    request_id          text        NOT NULL,
    dataset             text        NOT NULL,
    event_id            uuid        NOT NULL,
    key_set             text        NOT NULL,
    identifier_source   text        NOT NULL,
    action              text        NOT NULL,
    keys                jsonb       NOT NULL,
    task_ids            jsonb       NOT NULL,
    -- whether PURGED waits for this target (deletes do; kept snapshots and audit-covered datasets do not)
    blocking            boolean     NOT NULL,
    outcome             text        NOT NULL,
    detail              text,
    confirmed           boolean     NOT NULL DEFAULT false,
    expected_keys       integer     NOT NULL,
    reported_keys       bigint      NOT NULL DEFAULT 0,
    deleted             bigint      NOT NULL DEFAULT 0,
    skipped_newer       bigint      NOT NULL DEFAULT 0,
    already_absent      bigint      NOT NULL DEFAULT 0,
    still_present       bigint      NOT NULL DEFAULT 0,
    copy_tasks_expected integer     NOT NULL DEFAULT 0,
    copy_tasks_reported integer     NOT NULL DEFAULT 0,
    updated_at          timestamptz NOT NULL,
    PRIMARY KEY (request_id, dataset),
    UNIQUE (event_id, dataset, key_set)
);

-- Batch results of forward tasks (source and copy batches), once per batch.
CREATE TABLE forward_batches (
    request_id     text        NOT NULL,
    batch_id       text        NOT NULL,
    task_id        text        NOT NULL,
    dataset        text        NOT NULL,
    copy_of        text,
    completed      boolean     NOT NULL,
    failure        text,
    deleted        bigint      NOT NULL DEFAULT 0,
    skipped_newer  bigint      NOT NULL DEFAULT 0,
    already_absent bigint      NOT NULL DEFAULT 0,
    failed         bigint      NOT NULL DEFAULT 0,
    still_present  bigint      NOT NULL DEFAULT 0,
    copy_tasks     integer     NOT NULL DEFAULT 0,
    at             timestamptz NOT NULL,
    PRIMARY KEY (request_id, batch_id)
);

-- Chains this control plane originated; an incoming request in one of them is its own echo (a loop).
CREATE TABLE forward_chains (
    chain_id   uuid        PRIMARY KEY,
    request_id text        NOT NULL,
    created_at timestamptz NOT NULL
);

-- What forward deletion does to a dataset; a dataset without a row is deleted from (DELETE).
CREATE TABLE forward_policies (
    dataset    text        PRIMARY KEY,
    action     text        NOT NULL CHECK (action IN ('DELETE', 'KEEP_SNAPSHOT', 'ANONYMISE')),
    updated_by text        NOT NULL,
    updated_at timestamptz NOT NULL
);

-- Where the reconciler's last scan stopped.
CREATE TABLE forward_reconcile_watermark (
    name         text        PRIMARY KEY,
    published_at timestamptz NOT NULL,
    request_id   text        NOT NULL
);
