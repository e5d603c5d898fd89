package io.erasure.validation.resurrection;

import java.time.Instant;
import java.util.Map;

/**
 * A line of {@code runs/<runId>/resurrected.jsonl.gz}: a row of the final set that an earlier run or
 * request already deleted and that is live again.
 *
 * @param key            the row's primary key, as in the final set
 * @param firstDeletedAt the earliest deletion the log still holds for the key
 * @param firstDeletedBy the run or forward-deletion request of that deletion
 * @param foundByRun     the run that found the row live again (and deletes it again)
 */
public record ResurrectedRow(
        String dataset, Map<String, Object> key, Instant firstDeletedAt, String firstDeletedBy, String foundByRun) {}
