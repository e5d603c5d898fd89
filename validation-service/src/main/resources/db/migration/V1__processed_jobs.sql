-- Idempotence (DESIGN invariant 4): a validation job is applied once per scope. The key is the job id
-- together with a hash of what the job covers (event + dataset + candidate set), so a re-delivered job
-- is counted, and a job id reused for a different scope is not mistaken for a duplicate.
CREATE TABLE processed_jobs (
    job_id             TEXT        NOT NULL,
    scope_hash         TEXT        NOT NULL,
    run_id             TEXT,
    first_processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    deliveries         INTEGER     NOT NULL DEFAULT 1 CHECK (deliveries >= 1),
    PRIMARY KEY (job_id, scope_hash)
);

CREATE INDEX processed_jobs_run ON processed_jobs (run_id);
