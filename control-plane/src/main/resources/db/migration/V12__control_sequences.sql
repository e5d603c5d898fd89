-- The sequence of each control scope's newest signal on erasure.control ('global' or a dataset), and the key it was
-- signed with (issue 18). The next signal of a scope takes greatest(sequence + 1, now in microseconds), drawn under the
-- scope's row lock in the transaction that changes the scope and adds its message to the outbox: sequences of a scope
-- only grow, whatever the clocks of the control plane's replicas and restarts, and two changes of one scope publish in
-- sequence order, the later carrying both.
CREATE TABLE control_sequences (
    scope        TEXT        PRIMARY KEY,
    sequence     BIGINT      NOT NULL CHECK (sequence >= 0),
    -- null: the newest message was published before signals were signed (deletion reads it as stopped)
    key_id       TEXT,
    published_at TIMESTAMPTZ NOT NULL
);

-- What was published so far (the outbox keeps every message): the largest sequence of each scope, so the first signal
-- after the upgrade is newer than all of them even if the clock stepped back, and the key of its newest message, so
-- the control plane re-publishes signed the scopes whose newest message is not signed with its key.
INSERT INTO control_sequences (scope, sequence, key_id, published_at)
SELECT DISTINCT ON (message_key) message_key,
       max(coalesce((payload::jsonb #>> '{payload,sequence}')::bigint, 0)) OVER (PARTITION BY message_key),
       payload::jsonb #>> '{payload,keyId}',
       created_at
FROM outbox
WHERE topic = 'erasure.control'
ORDER BY message_key, id DESC;
