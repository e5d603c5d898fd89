-- Kafka headers of an outbox message, as a JSON object of UTF-8 strings (null: none). Deletion tasks carry their store
-- in them (erasure.store), so each deletion lane takes its own tasks without reading the others'.
ALTER TABLE outbox ADD COLUMN headers JSONB;
