-- A reapplication leaves alone every key a recovery restored after its erasure (the restored row can carry its old
-- write time or updated_at, which the delete at the original cut-off would take again): it looks its erasures'
-- records up among the RESTORED outcomes.
CREATE INDEX recovery_outcomes_restored ON recovery_outcomes (record_id) WHERE outcome = 'RESTORED';
