-- Tasks the deletion service refused because it could not prove them authentic (issue 18, erasure.deletion.tasks.refused).
-- Such a task changes no run's or request's state (anyone who can produce to the task topic can claim their ids): the
-- control plane only counts, per run and per forward request a refused task claims, how many were refused and the
-- latest reason. Claims of runs or requests that do not exist are not kept.
CREATE TABLE refused_task_totals (
    -- RUN or REQUEST, and the run's or request's id
    origin_kind         TEXT        NOT NULL,
    origin_id           TEXT        NOT NULL,
    refused             BIGINT      NOT NULL,
    latest_task_id      TEXT        NOT NULL,
    -- the kind of authorization the latest task needed (RUN, FORWARD, COPY)
    latest_kind         TEXT        NOT NULL,
    latest_reason_class TEXT        NOT NULL,
    latest_reason       TEXT        NOT NULL,
    latest_key_id       TEXT,
    latest_at           TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (origin_kind, origin_id)
);

-- Each refusal counted once: a refusal published again (the deletion service redelivered the task) or read again has
-- the same id. Kept as long as the topic keeps refusals (7 days), then pruned.
CREATE TABLE refused_task_ids (
    refusal_id TEXT        PRIMARY KEY,
    seen_at    TIMESTAMPTZ NOT NULL
);

CREATE INDEX refused_task_ids_by_age ON refused_task_ids (seen_at);
