-- How a recovery writes its rows back (in a dry-run: would): ONLINE through the store adapter in throttled
-- batches, or BULK as SSTables imported into Cassandra (recoveries of at least erasure.recovery.bulk-threshold
-- records). NULL until the request has started.
ALTER TABLE recovery_requests
    ADD COLUMN path TEXT CHECK (path IN ('ONLINE', 'BULK'));
