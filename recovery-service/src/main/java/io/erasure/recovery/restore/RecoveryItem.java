package io.erasure.recovery.restore;

import java.time.Instant;
import java.util.Map;

/** The outcome of one record of a recovery, as stored. */
public record RecoveryItem(
        String recordId,
        Map<String, Object> primaryKey,
        Outcome outcome,
        String detail,
        Instant deletedAt,
        String runId) {}
