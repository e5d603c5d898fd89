-- The newest control signal this service applied, per scope ('global' or a dataset), with the state it carries and the
-- message it came in (issue 18): written before the service acts on a newer signal and read at start before
-- erasure.control, so an older signal never wins over it, across restarts (an old "lift" replayed after a newer
-- "engage" may be all that compaction leaves of its scope) and across replicas (they share this table; a row only ever
-- moves to a larger sequence). A scope the topic no longer holds keeps its stored state: an engaged switch stays
-- engaged. The messages of its key up to the stored one are superseded by it: a replica reading them later skips them.
CREATE TABLE control_sequences (
    scope             TEXT        PRIMARY KEY,
    sequence          BIGINT      NOT NULL CHECK (sequence >= 0),
    active            BOOLEAN     NOT NULL,
    cancelled_runs    JSONB       NOT NULL,
    actor             TEXT        NOT NULL,
    reason            TEXT        NOT NULL,
    key_id            TEXT        NOT NULL,
    signature         TEXT        NOT NULL,
    message_topic     TEXT        NOT NULL,
    message_partition INT         NOT NULL,
    message_key       TEXT,
    message_offset    BIGINT      NOT NULL,
    applied_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
