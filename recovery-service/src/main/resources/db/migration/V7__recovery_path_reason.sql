-- Why a recovery large enough for the bulk path (erasure.recovery.bulk-threshold) restores online: the bulk path
-- cannot run on this service (no SSTable writer classpath, a connection without JMX). Such a recovery goes online
-- instead of failing, and says so. NULL when the path was chosen by size alone.
ALTER TABLE recovery_requests ADD COLUMN path_reason TEXT;
