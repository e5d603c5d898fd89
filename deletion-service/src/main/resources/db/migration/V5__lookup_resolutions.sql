-- What each forward lookup task resolved (issue 10): the keys it found, in the order its tasks were cut
-- from. A redelivered lookup (the control plane's reconciler re-publishing a stuck request) publishes
-- exactly these tasks again instead of looking up anew: rows deleted meanwhile would shift the cut and
-- give tasks the control plane does not wait for, and a lost task would never come back. Kept for
-- erasure.deletion.forward-lookup-retention (30 days), like the platform's other copies of deleted data.
CREATE TABLE lookup_resolutions (
    batch_id    TEXT        PRIMARY KEY,
    keys        JSONB       NOT NULL,
    resolved_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX lookup_resolutions_by_age ON lookup_resolutions (resolved_at);
