-- When the instance running a recovery last said it was alive: a request whose heartbeat stopped (its service was
-- killed or restarted under it) is failed with a reason that says to ask again, instead of looking RUNNING for ever.
ALTER TABLE recovery_requests ADD COLUMN heartbeat_at TIMESTAMPTZ;
