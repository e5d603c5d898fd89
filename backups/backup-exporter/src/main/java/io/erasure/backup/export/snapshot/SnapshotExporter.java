package io.erasure.backup.export.snapshot;

import io.erasure.backup.export.throttle.RowRateLimiter;
import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.PartCompression;
import io.erasure.backup.format.PartWriter;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupLocation;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Exports a table into a snapshot of the backup format, resumably:
 *
 * <ol>
 *   <li>the snapshot is named after the export's start and its cut-off is that start minus the
 *       clock-skew margin (anything written later is newer than the backup);</li>
 *   <li>parts are written one after the other (multipart uploads, visible only once complete) and
 *       after each one {@code _progress.json} records it and where the next part starts;</li>
 *   <li>the manifest is written last, then the progress marker is removed: a snapshot without a
 *       manifest is incomplete and is never audited.</li>
 * </ol>
 *
 * If the previous export of the location crashed, the next call resumes its snapshot (same name,
 * cut-off and schema) after the last finished part, unless it is older than {@code maxResumeAge}
 * or the table's schema changed, in which case a new snapshot starts.
 */
public final class SnapshotExporter {

    public static final String PROGRESS = "_progress.json";

    private static final Logger log = LoggerFactory.getLogger(SnapshotExporter.class);

    /** Test seam: called after each part is stored and recorded. */
    public interface Observer {
        Observer NONE = part -> {};

        void partRecorded(ManifestPart part);
    }

    private final BackupBucket bucket;
    private final Clock clock;
    private final Duration skewMargin;
    private final Duration maxResumeAge;
    private final Observer observer;

    public SnapshotExporter(
            BackupBucket bucket, Clock clock, Duration skewMargin, Duration maxResumeAge, Observer observer) {
        this.bucket = bucket;
        this.clock = clock;
        this.skewMargin = skewMargin;
        this.maxResumeAge = maxResumeAge;
        this.observer = observer;
    }

    public SnapshotExporter(BackupBucket bucket) {
        this(bucket, Clock.systemUTC(), CutoffTimestamp.DEFAULT_CLOCK_SKEW_MARGIN, Duration.ofHours(24), Observer.NONE);
    }

    public ExportResult export(String dataset, BackupLocation location, TableExport table, RowRateLimiter limiter)
            throws IOException, InterruptedException {
        // refused before any progress is written: the exporter writes streamed formats only
        PartCompression.requireStreamed(location.format());
        Optional<ExportProgress> resumable = resumable(location, table);
        ExportProgress progress = resumable.orElseGet(() -> {
            Instant start = clock.instant();
            ExportProgress fresh = ExportProgress.start(
                    S3Layout.snapshotName(start),
                    CutoffTimestamp.fromBackupStart(start, skewMargin).micros(),
                    table.schema());
            save(location, fresh);
            return fresh;
        });
        if (resumable.isPresent()) {
            log.info(
                    "resuming export of {} into snapshot {} after {} finished parts",
                    dataset,
                    progress.snapshot(),
                    progress.parts().size());
        }
        List<String> columns =
                progress.schema().columns().stream().map(ColumnSchema::name).toList();
        int written = 0;
        while (!progress.exhausted()) {
            String key = S3Layout.partKey(
                    location, progress.snapshot(), progress.parts().size());
            PartWriter part = PartWriter.toS3(
                    bucket.s3(), bucket.bucket(), key, location.format(), columns, table.writeTimeColumns());
            String next;
            try {
                next = table.writePart(progress.cursor(), part, limiter);
            } catch (IOException | InterruptedException | RuntimeException | Error e) {
                part.abort();
                throw e;
            }
            ManifestPart entry = null;
            if (part.rowCount() == 0) {
                part.abort();
            } else {
                entry = part.finish();
                written++;
            }
            progress = progress.with(entry, next);
            save(location, progress);
            if (entry != null) {
                observer.partRecorded(entry);
            }
        }
        BackupManifest manifest = new BackupManifest(
                dataset,
                progress.snapshot(),
                location.format(),
                progress.schema(),
                progress.cutoffMicros(),
                progress.parts());
        bucket.writeManifest(location, manifest);
        bucket.s3().deleteObject(r -> r.bucket(bucket.bucket()).key(progressKey(location, manifest.snapshot())));
        log.info(
                "exported {}: snapshot {} with {} rows in {} parts",
                dataset,
                manifest.snapshot(),
                manifest.totalRows(),
                manifest.parts().size());
        return new ExportResult(
                S3Layout.manifestKey(location, manifest.snapshot()),
                manifest.snapshot(),
                manifest.totalRows(),
                manifest.parts().size(),
                written,
                resumable.isPresent());
    }

    public static String progressKey(BackupLocation location, String snapshot) {
        return S3Layout.snapshotPrefix(location, snapshot) + PROGRESS;
    }

    private Optional<ExportProgress> resumable(BackupLocation location, TableExport table) {
        for (String snapshot : bucket.snapshots(location)) {
            if (bucket.exists(S3Layout.manifestKey(location, snapshot))) {
                return Optional.empty(); // the newest snapshot is complete: nothing to resume
            }
            Optional<ExportProgress> progress = read(progressKey(location, snapshot));
            if (progress.isPresent()) {
                boolean fresh =
                        S3Layout.parseSnapshot(snapshot).plus(maxResumeAge).isAfter(clock.instant());
                if (fresh && progress.get().schema().equals(table.schema())) {
                    return progress;
                }
                log.warn(
                        "not resuming snapshot {} of {}: {}",
                        snapshot,
                        location.prefix(),
                        fresh ? "the table's schema changed" : "it is older than " + maxResumeAge);
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private Optional<ExportProgress> read(String key) {
        try {
            return Optional.of(BackupJson.MAPPER.readValue(
                    bucket.s3()
                            .getObjectAsBytes(r -> r.bucket(bucket.bucket()).key(key))
                            .asByteArray(),
                    ExportProgress.class));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private void save(BackupLocation location, ExportProgress progress) {
        byte[] json = BackupJson.MAPPER.writeValueAsBytes(progress);
        bucket.s3()
                .putObject(
                        r -> r.bucket(bucket.bucket())
                                .key(progressKey(location, progress.snapshot()))
                                .contentType("application/json"),
                        RequestBody.fromBytes(json));
    }
}
