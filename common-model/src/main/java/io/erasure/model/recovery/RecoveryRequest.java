package io.erasure.model.recovery;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.time.Instant;
import java.util.UUID;

/**
 * A request to restore deleted rows from the deletion log. Restores never overwrite data newer
 * than the delete; a dry-run reports what would be restored and the conflicts, and writes nothing.
 * Who asked and when is kept for accountability.
 */
public record RecoveryRequest(String id, String requester, RecoveryScope scope, boolean dryRun, Instant createdAt) {

    public RecoveryRequest {
        Names.opaqueId("recovery.id", id);
        Require.nonBlank("recovery.requester", requester);
        Require.nonNull("recovery.scope (keys, timeWindow or run)", scope);
        Require.nonNull("recovery.createdAt", createdAt);
    }

    public static RecoveryRequest create(String requester, RecoveryScope scope, boolean dryRun, Instant createdAt) {
        return new RecoveryRequest("recovery-" + UUID.randomUUID(), requester, scope, dryRun, createdAt);
    }
}
