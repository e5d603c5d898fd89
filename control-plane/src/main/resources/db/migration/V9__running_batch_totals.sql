-- Running totals of batch results (issue 19): each batch adds its counts here in the transaction that records
-- it (once, by batch id), so an event costs the same however many batches its run already has. The run's counts,
-- the "all batches reported" decision and the receipt read these instead of summing run_batches again.

-- Per run and dataset: the run's own dataset under its name, each copy under its view name (<source>--<copy>).
CREATE TABLE run_batch_totals (
    run_id                 TEXT        NOT NULL REFERENCES runs (id),
    dataset                TEXT        NOT NULL,
    batches                BIGINT      NOT NULL,
    deleted                BIGINT      NOT NULL,
    skipped_newer          BIGINT      NOT NULL,
    already_absent         BIGINT      NOT NULL,
    failed                 BIGINT      NOT NULL,
    still_present          BIGINT      NOT NULL,
    clean_batches          BIGINT      NOT NULL,
    rows_remaining_batches BIGINT      NOT NULL,
    not_supported_batches  BIGINT      NOT NULL,
    first_at               TIMESTAMPTZ NOT NULL,
    last_at                TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_id, dataset)
);

-- The copy tasks that reported a batch or failed for good, each once: the distinct count a run waits on.
CREATE TABLE run_copy_tasks (
    run_id  TEXT NOT NULL REFERENCES runs (id),
    task_id TEXT NOT NULL,
    PRIMARY KEY (run_id, task_id)
);

-- What the run waits for: its own batches counted, the copy tasks they published, the copy tasks that reported.
ALTER TABLE runs
    ADD COLUMN batches_completed    BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN copy_tasks_published BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN copy_tasks_reported  BIGINT NOT NULL DEFAULT 0;

-- Backfill every existing run from the batches already recorded, as the control plane summed them until now
-- (batches counted before copies were recorded have no dataset: they are the run's own).
INSERT INTO run_batch_totals (run_id, dataset, batches, deleted, skipped_newer, already_absent, failed, still_present,
                              clean_batches, rows_remaining_batches, not_supported_batches, first_at, last_at)
SELECT b.run_id, CASE WHEN b.copy_of IS NULL THEN r.dataset ELSE b.dataset END, count(*), sum(b.deleted),
       sum(b.skipped_newer), sum(b.already_absent), sum(b.failed), sum(b.still_present),
       count(*) FILTER (WHERE b.read_back = 'CLEAN'), count(*) FILTER (WHERE b.read_back = 'ROWS_REMAINING'),
       count(*) FILTER (WHERE b.read_back = 'NOT_SUPPORTED'), min(b.received_at), max(b.received_at)
FROM run_batches b JOIN runs r ON r.id = b.run_id
GROUP BY 1, 2;

INSERT INTO run_copy_tasks (run_id, task_id)
SELECT run_id, task_id FROM run_batches WHERE copy_of IS NOT NULL
UNION
SELECT run_id, task_id FROM run_batch_failures WHERE copy_of IS NOT NULL;

UPDATE runs r SET batches_completed = own.batches, copy_tasks_published = own.copy_tasks
FROM (SELECT run_id, count(*) AS batches, coalesce(sum(copy_tasks), 0) AS copy_tasks FROM run_batches
      WHERE copy_of IS NULL GROUP BY run_id) own
WHERE r.id = own.run_id;

UPDATE runs r SET copy_tasks_reported = reported.tasks
FROM (SELECT run_id, count(*) AS tasks FROM run_copy_tasks GROUP BY run_id) reported
WHERE r.id = reported.run_id;

-- Forward targets keep the same running totals of their batches (sum_*), added as each batch is recorded; the
-- displayed columns (reported_keys, deleted, ...) are still written only when the target's outcome is worked out.
ALTER TABLE forward_targets
    ADD COLUMN sum_lookups_reported    BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_lookup_keys         BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_lookup_refusals     BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_reported            BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_deleted             BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_skipped_newer       BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_already_absent      BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_failed_keys         BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_still_present       BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_copy_tasks          BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_failures            BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_copy_tasks_reported BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_copy_still_present  BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN sum_copy_failures       BIGINT NOT NULL DEFAULT 0;

-- A source batch is in its target's sums once counted: at once for a key target, for a lookup target once its
-- task is one of the target's lookups or one that a lookup reported (forward_resolved_tasks).
ALTER TABLE forward_batches ADD COLUMN counted BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX forward_batches_by_task ON forward_batches (request_id, task_id);
CREATE INDEX forward_batches_failures ON forward_batches (request_id) WHERE failure IS NOT NULL;
CREATE INDEX forward_batches_lookups ON forward_batches (request_id, dataset) WHERE resolved_task_ids IS NOT NULL;

CREATE TABLE forward_resolved_tasks (
    request_id text NOT NULL,
    dataset    text NOT NULL,
    task_id    text NOT NULL,
    PRIMARY KEY (request_id, dataset, task_id)
);

-- Backfill from the batches recorded so far, with the filters the control plane summed them with until now.
INSERT INTO forward_resolved_tasks (request_id, dataset, task_id)
SELECT DISTINCT request_id, dataset, jsonb_array_elements_text(resolved_task_ids) FROM forward_batches
WHERE resolved_task_ids IS NOT NULL;

UPDATE forward_batches b SET counted = true
FROM forward_targets t
WHERE t.request_id = b.request_id AND t.dataset = b.dataset AND b.copy_of IS NULL
  AND (NOT t.lookup OR t.task_ids ? b.task_id OR EXISTS (
      SELECT 1 FROM forward_resolved_tasks r
      WHERE r.request_id = b.request_id AND r.dataset = b.dataset AND r.task_id = b.task_id));

UPDATE forward_targets t SET sum_lookups_reported = l.reported, sum_lookup_keys = l.keys,
                             sum_lookup_refusals = l.refusals
FROM (SELECT request_id, dataset, count(*) AS reported, coalesce(sum(resolved_keys), 0) AS keys,
             count(refusal) AS refusals
      FROM forward_batches WHERE completed AND resolved_task_ids IS NOT NULL GROUP BY 1, 2) l
WHERE t.request_id = l.request_id AND t.dataset = l.dataset;

UPDATE forward_targets t SET sum_reported = s.reported, sum_deleted = s.deleted, sum_skipped_newer = s.skipped_newer,
                             sum_already_absent = s.already_absent, sum_failed_keys = s.failed_keys,
                             sum_still_present = s.still_present, sum_copy_tasks = s.copy_tasks,
                             sum_failures = s.failures
FROM (SELECT request_id, dataset, sum(deleted + skipped_newer + already_absent + failed) AS reported,
             sum(deleted) AS deleted, sum(skipped_newer) AS skipped_newer, sum(already_absent) AS already_absent,
             sum(failed) AS failed_keys, sum(still_present) AS still_present, sum(copy_tasks) AS copy_tasks,
             count(failure) AS failures
      FROM forward_batches WHERE copy_of IS NULL AND counted GROUP BY 1, 2) s
WHERE t.request_id = s.request_id AND t.dataset = s.dataset;

UPDATE forward_targets t SET sum_copy_tasks_reported = c.reported, sum_copy_still_present = c.still_present,
                             sum_copy_failures = c.failures
FROM (SELECT request_id, copy_of, count(DISTINCT task_id) AS reported, sum(still_present) AS still_present,
             count(failure) AS failures
      FROM forward_batches WHERE copy_of IS NOT NULL GROUP BY 1, 2) c
WHERE t.request_id = c.request_id AND t.dataset = c.copy_of;
