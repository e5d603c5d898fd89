-- Recoveries and reapplications act under the spec each run or request froze in the deletion log, never under one a
-- caller sends: the request's spec is optional (kept, when sent, for the record; it was checked to be the frozen one).
-- A reapplication can re-apply erasures of runs under two revisions of a dataset's spec at one cut-off: a group is
-- identified by its cut-off, its cleared columns AND the digest of the frozen spec its tasks carry.
ALTER TABLE reapplications ALTER COLUMN dataset_spec DROP NOT NULL;
ALTER TABLE reapplication_groups ADD COLUMN spec_digest TEXT NOT NULL DEFAULT '';
ALTER TABLE reapplication_groups DROP CONSTRAINT reapplication_groups_pkey;
ALTER TABLE reapplication_groups ADD PRIMARY KEY (reapplication_id, cutoff_micros, clear_columns, spec_digest);
