package io.erasure.deletion.purge;

import io.erasure.store.spi.PurgeStatus;
import java.time.Instant;

/**
 * One dataset's line of {@code GET /api/purge}: whether its deleted rows may still be on disk. Either the store's
 * answer ({@code error} null) or why it could not be asked ({@code error} set, the status fields null).
 *
 * @param lastDeletedAt when the dataset's last delete was executed (see {@link DatasetDeletions})
 * @param purgeableAt   {@code lastDeletedAt + gcGraceSeconds}
 * @param checkedAt     when the store was asked (answers are reused for a while)
 */
public record OnDisk(
        String dataset,
        String table,
        Instant lastDeletedAt,
        Long gcGraceSeconds,
        Instant purgeableAt,
        Boolean stillOnDisk,
        Long tombstonesOnDisk,
        String explanation,
        String error,
        Instant checkedAt) {

    static OnDisk of(String dataset, PurgeStatus status, Instant checkedAt) {
        return new OnDisk(
                dataset,
                status.table(),
                status.deletedAt(),
                status.gcGrace().getSeconds(),
                status.purgeableAt(),
                status.stillOnDisk(),
                status.tombstonesOnDisk(),
                status.explanation(),
                null,
                checkedAt);
    }

    static OnDisk failed(String dataset, String table, Instant lastDeletedAt, String error, Instant checkedAt) {
        return new OnDisk(dataset, table, lastDeletedAt, null, null, null, null, null, error, checkedAt);
    }
}
