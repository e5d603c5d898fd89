-- Accountability (DESIGN invariant 10): who changed a registration, approved a run, flipped a kill
-- switch or asked for a recovery, and when. Rows are only ever appended.
CREATE TABLE actions_log (
    id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    actor   TEXT        NOT NULL,
    action  TEXT        NOT NULL,
    subject TEXT        NOT NULL,
    details JSONB       NOT NULL DEFAULT '{}'::jsonb,
    at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX actions_log_subject_at ON actions_log (subject, at);
CREATE INDEX actions_log_actor_at ON actions_log (actor, at);
