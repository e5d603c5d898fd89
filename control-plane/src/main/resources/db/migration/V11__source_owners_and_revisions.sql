-- Identifier sources belong to a team (issue 18): only its OWNERs (or an OPERATOR) change one. NULL: owned by the
-- operators (sources registered before teams owned them, or by an OPERATOR for no team).
ALTER TABLE identifier_sources ADD COLUMN owner_team TEXT;

-- Every change of a source, as datasets keep theirs: what it was, who changed it, when.
CREATE TABLE identifier_source_revisions (
    source     TEXT        NOT NULL REFERENCES identifier_sources (name),
    revision   INT         NOT NULL,
    change     TEXT        NOT NULL,
    spec       JSONB       NOT NULL,
    owner_team TEXT,
    changed_by TEXT        NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (source, revision)
);
INSERT INTO identifier_source_revisions (source, revision, change, spec, owner_team, changed_by, changed_at)
SELECT name, revision, 'REGISTERED', spec, owner_team, updated_by, updated_at FROM identifier_sources;

-- A run freezes the source's revision with its spec, so an approval can exclude the source's last editor.
ALTER TABLE runs ADD COLUMN identifier_source_revision INT;
