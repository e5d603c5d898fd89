-- Transactional outbox: commands and control signals are written with the state change that causes
-- them and relayed to Kafka after commit, in order; a crash between the two loses nothing.
CREATE TABLE outbox (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic      TEXT        NOT NULL,
    message_key TEXT       NOT NULL,
    payload    TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    sent_at    TIMESTAMPTZ
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
