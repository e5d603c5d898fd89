package io.erasure.controlplane.forward;

import io.erasure.controlplane.registry.ForwardAction;
import java.util.List;

/**
 * One dataset of a request and what became of it.
 *
 * @param blocking whether PURGED waits for this target (deletes and anonymisations do; kept snapshots and
 *                 datasets left to the nightly audit do not)
 * @param lookup       the identifier is an indexed column, not the key: the tasks were lookups, and {@code keys}
 *                     is the number of rows they found
 * @param clearColumns the columns anonymised (ANONYMISE), else empty
 */
public record ForwardTarget(
        String dataset,
        String identifierSource,
        ForwardAction action,
        TargetOutcome outcome,
        String detail,
        boolean blocking,
        boolean confirmed,
        int keys,
        List<String> taskIds,
        long deleted,
        long skippedNewer,
        long alreadyAbsent,
        long stillPresent,
        int copyTasksExpected,
        int copyTasksReported,
        boolean lookup,
        List<String> clearColumns) {}
