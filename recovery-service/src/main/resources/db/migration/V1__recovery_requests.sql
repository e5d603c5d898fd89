-- A request to restore deleted rows from the deletion log: by keys, by time window or by run.
-- Who asked and when is kept for accountability (DESIGN invariant 10); conflicts are rows left alone
-- because newer data exists (invariant 3).
CREATE TABLE recovery_requests (
    id            UUID        PRIMARY KEY,
    requested_by  TEXT        NOT NULL,
    reason        TEXT        NOT NULL,
    scope_kind    TEXT        NOT NULL CHECK (scope_kind IN ('KEYS', 'TIME_WINDOW', 'RUN')),
    scope         JSONB       NOT NULL,
    dry_run       BOOLEAN     NOT NULL DEFAULT false,
    status        TEXT        NOT NULL DEFAULT 'PENDING'
                              CHECK (status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED')),
    requested_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    completed_at  TIMESTAMPTZ,
    rows_restored BIGINT      NOT NULL DEFAULT 0 CHECK (rows_restored >= 0),
    conflicts     BIGINT      NOT NULL DEFAULT 0 CHECK (conflicts >= 0),
    failure       TEXT
);

CREATE INDEX recovery_requests_status ON recovery_requests (status, requested_at);
