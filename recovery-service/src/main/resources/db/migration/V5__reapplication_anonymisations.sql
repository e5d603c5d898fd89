-- Reapplications re-apply an anonymisation as one (the row is kept, the same columns cleared at the original
-- cut-off), never as a delete. One cut-off can then have two groups, a delete and an anonymisation (or
-- anonymisations of different columns), so a group is identified by its cut-off AND its cleared columns.
ALTER TABLE reapplication_groups ADD COLUMN clear_columns TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE reapplication_groups DROP CONSTRAINT reapplication_groups_pkey;
ALTER TABLE reapplication_groups ADD PRIMARY KEY (reapplication_id, cutoff_micros, clear_columns);

-- Keys whose latest erasure is an anonymisation whose cleared columns could not be read from the log (record purged
-- or gone): skipped, never deleted instead. The count and the reasons are kept; the keys, as all keys, are not.
ALTER TABLE reapplications ADD COLUMN skipped_keys BIGINT NOT NULL DEFAULT 0 CHECK (skipped_keys >= 0);
ALTER TABLE reapplications ADD COLUMN skipped_reasons JSONB NOT NULL DEFAULT '{}';
