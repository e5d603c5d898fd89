package io.erasure.recovery.reapply;

import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Turns a request's {@code from}/{@code to} or {@code snapshot} into the window of deletion times to read. The
 * log keeps erasures for {@code retention}: a window starting before that is refused (the caller would believe
 * older erasures are re-applied); a snapshot older than that is read from the retention's start, with a warning.
 */
final class ErasureWindows {

    /** Clock skew between the caller and this service: a {@code from} this much before the retention is accepted. */
    private static final Duration SKEW = Duration.ofMinutes(1);

    private final BackupBucket backups;
    private final Duration retention;
    private final Clock clock;

    /** @param backups the platform bucket, or null when this service has none ({@code erasure.s3.bucket} unset) */
    ErasureWindows(BackupBucket backups, Duration retention, Clock clock) {
        this.backups = backups;
        this.retention = retention;
        this.clock = clock;
    }

    /** @param dataset the dataset's frozen spec (its latest revision): a snapshot is looked up in its backups */
    ErasureWindow resolve(ReapplicationRequest request, Supplier<DatasetSpec> dataset) {
        Instant now = clock.instant();
        Instant oldest = now.minus(retention);
        if (request.snapshot() != null) {
            return sinceSnapshot(request, dataset.get(), now, oldest);
        }
        Instant from = request.from() == null ? oldest : request.from();
        Instant to = request.to() == null || request.to().isAfter(now) ? now : request.to();
        if (from.isBefore(oldest.minus(SKEW))) {
            throw new IllegalArgumentException(
                    "from " + from + " is beyond the deletion log's retention of " + retention.toDays()
                            + " days: it holds no erasures before " + oldest + "; use a from at or after it");
        }
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException(
                    "from must be before to (and before now), got from=" + from + ", to=" + to);
        }
        return new ErasureWindow(from, to, null, null, null);
    }

    private ErasureWindow sinceSnapshot(
            ReapplicationRequest request, DatasetSpec dataset, Instant now, Instant oldest) {
        if (backups == null) {
            throw new IllegalArgumentException(
                    "snapshot needs the platform bucket, which this service has not been given"
                            + " (erasure.s3.bucket); give the deletedAt window from/to instead");
        }
        String key = S3Layout.manifestKey(dataset.backup(), request.snapshot());
        BackupManifest manifest;
        try {
            manifest = backups.readManifest(key);
        } catch (BackupIntegrityException e) {
            throw new IllegalArgumentException("snapshot '" + request.snapshot() + "' has no readable manifest in the"
                    + " dataset's backups: " + e.getMessage());
        }
        if (!manifest.dataset().equals(request.dataset())) {
            throw new IllegalArgumentException("snapshot '" + request.snapshot() + "' at " + key
                    + " is a backup of dataset '" + manifest.dataset() + "', not of '" + request.dataset() + "'");
        }
        // everything erased after the cut-off may be in the restored data: the backup began before it was deleted
        Instant cutoff = CutoffTimestamp.fromMicros(manifest.cutoffMicros());
        if (!cutoff.isBefore(now)) {
            throw new IllegalArgumentException("snapshot '" + request.snapshot() + "' has a cut-off in the future ("
                    + cutoff + "); its manifest is wrong");
        }
        String warning = null;
        Instant from = cutoff;
        if (cutoff.isBefore(oldest)) {
            from = oldest;
            warning = "snapshot cut-off " + cutoff + " is older than the deletion log's retention: erasures before "
                    + oldest + " are no longer in the log and are not re-applied (the next audit finds such rows)";
        }
        return new ErasureWindow(from, now, request.snapshot(), manifest.cutoffMicros(), warning);
    }
}
