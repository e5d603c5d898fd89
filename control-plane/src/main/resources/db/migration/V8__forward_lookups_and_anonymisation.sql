-- Forward deletion reaches datasets whose identifier is an indexed column (lookups) and anonymises
-- where the owner asked for it (issue 10).

-- ANONYMISE clears these columns (a JSON array of column names); empty for the other actions.
ALTER TABLE forward_policies ADD COLUMN clear_columns jsonb NOT NULL DEFAULT '[]';

-- A lookup target's tasks are lookups: the deletion service finds the rows and reports which tasks it
-- published (forward_batches.resolved_task_ids); expected_keys is then the keys they hold.
ALTER TABLE forward_targets ADD COLUMN lookup boolean NOT NULL DEFAULT false;
ALTER TABLE forward_targets ADD COLUMN lookup_tasks integer NOT NULL DEFAULT 0;
ALTER TABLE forward_targets ADD COLUMN clear_columns jsonb NOT NULL DEFAULT '[]';

ALTER TABLE forward_batches ADD COLUMN resolved_task_ids jsonb;
ALTER TABLE forward_batches ADD COLUMN resolved_keys bigint;
ALTER TABLE forward_batches ADD COLUMN refusal text;

-- Requests the reconciler has re-published and will re-publish again, with backoff, until resolved.
CREATE TABLE forward_retries (
    request_id text        PRIMARY KEY,
    attempts   integer     NOT NULL,
    next_at    timestamptz NOT NULL
);
CREATE INDEX forward_retries_due ON forward_retries (next_at);

-- Targets recorded while ANONYMISE was not carried out (outcome ANONYMISATION_REQUESTED, blocking): their
-- tasks were never published. They are FAILED with the reason, so the request shows why it is unresolved
-- and a new request for the identifier anonymises.
UPDATE forward_targets SET outcome = 'FAILED',
    detail = 'recorded before anonymisation was carried out: nothing was changed; publish a newer version of the request'
WHERE outcome = 'ANONYMISATION_REQUESTED';
