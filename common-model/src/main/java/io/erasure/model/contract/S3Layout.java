package io.erasure.model.contract;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.run.RunId;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every key the platform reads or writes in its bucket, defined once:
 *
 * <pre>
 * backups/&lt;dataset&gt;/&lt;snapshot&gt;/manifest.json
 * backups/&lt;dataset&gt;/&lt;snapshot&gt;/part-NNNNN.jsonl.gz | .jsonl.zst | .csv
 * runs/&lt;runId&gt;/candidates/part-NNNNN.jsonl.gz
 * runs/&lt;runId&gt;/final/part-NNNNN.jsonl.gz
 * runs/&lt;runId&gt;/report.json
 * runs/&lt;runId&gt;/receipt.json
 * retained/&lt;dataset&gt;/&lt;runId or requestId&gt;/&lt;recordId&gt;.json.gz
 * </pre>
 *
 * Snapshots are named by their UTC start time, {@code yyyyMMdd'T'HHmmss'Z'}, so names sort in time order.
 */
public final class S3Layout {

    public static final String BACKUPS = "backups/";
    public static final String RUNS = "runs/";
    public static final String RETAINED = "retained/";
    public static final String MANIFEST = "manifest.json";
    /** Candidate and final-set files are gzip JSON Lines. */
    public static final String RUN_FILE_EXTENSION = BackupFormat.JSONL_GZIP.extension();

    public static final int MAX_PART_INDEX = 99_999;

    private static final DateTimeFormatter SNAPSHOT = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC)
            .withResolverStyle(ResolverStyle.STRICT);
    private static final Pattern PART =
            Pattern.compile("part-(\\d{5})(\\.jsonl\\.gz|\\.jsonl\\.zst|\\.csv|\\.parquet)");

    private S3Layout() {}

    // ---- snapshots

    /** The snapshot name of a backup started at {@code instant} (seconds are kept, smaller units dropped). */
    public static String snapshotName(Instant instant) {
        return SNAPSHOT.format(Require.nonNull("instant", instant).truncatedTo(ChronoUnit.SECONDS));
    }

    public static Instant parseSnapshot(String snapshot) {
        Require.nonNull("snapshot", snapshot);
        try {
            return Instant.from(SNAPSHOT.parse(snapshot));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "snapshot must be a UTC time formatted yyyyMMdd'T'HHmmss'Z'" + " (e.g. 20240131T020000Z), got "
                            + Require.echo(snapshot),
                    e);
        }
    }

    // ---- backups

    /** {@code backups/<dataset>/}: where a dataset's (or identifier source's) backups go by default. */
    public static String backupsPrefix(String dataset) {
        return BACKUPS + Names.datasetName("dataset", dataset) + "/";
    }

    public static BackupLocation defaultBackupLocation(String dataset, BackupFormat format) {
        return new BackupLocation(backupsPrefix(dataset), format);
    }

    /** {@code <backup prefix><snapshot>/} */
    public static String snapshotPrefix(BackupLocation backup, String snapshot) {
        parseSnapshot(snapshot);
        return backup.prefix() + snapshot + "/";
    }

    public static String manifestKey(BackupLocation backup, String snapshot) {
        return snapshotPrefix(backup, snapshot) + MANIFEST;
    }

    /** {@code part-00042.jsonl.gz}: index zero-padded to five digits, extension from the format. */
    public static String partName(int index, BackupFormat format) {
        Require.inRange("part index", index, 0, MAX_PART_INDEX);
        return String.format(
                "part-%05d%s", index, Require.nonNull("format", format).extension());
    }

    public static String partKey(BackupLocation backup, String snapshot, int index) {
        return snapshotPrefix(backup, snapshot) + partName(index, backup.format());
    }

    /** The index of a part file name such as {@code part-00042.csv} (a full key is accepted too). */
    public static int parsePartIndex(String partNameOrKey) {
        Require.nonNull("part name", partNameOrKey);
        String name = partNameOrKey.substring(partNameOrKey.lastIndexOf('/') + 1);
        Matcher m = PART.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("part name must look like part-NNNNN.jsonl.gz, .jsonl.zst or .csv, got "
                    + Require.echo(partNameOrKey));
        }
        return Integer.parseInt(m.group(1));
    }

    // ---- runs

    public static String runPrefix(RunId runId) {
        return RUNS + Require.nonNull("runId", runId).value() + "/";
    }

    public static String candidatesPrefix(RunId runId) {
        return runPrefix(runId) + "candidates/";
    }

    /** The candidate file written by audit unit {@code index}. */
    public static String candidatesPartKey(RunId runId, int index) {
        return candidatesPrefix(runId) + partName(index, BackupFormat.JSONL_GZIP);
    }

    public static String finalPrefix(RunId runId) {
        return runPrefix(runId) + "final/";
    }

    public static String finalPartKey(RunId runId, int index) {
        return finalPrefix(runId) + partName(index, BackupFormat.JSONL_GZIP);
    }

    /** {@code runs/<runId>/final/manifest.json}: the final set's part digests, whose digest the control plane signs. */
    public static String finalManifestKey(RunId runId) {
        return finalPrefix(runId) + MANIFEST;
    }

    /**
     * {@code runs/<runId>/revalidated/}: what a re-validation (final set older than 24 h) kept, part for part; the
     * authorized final set under {@code final/} is never rewritten, so its signed digests keep matching.
     */
    public static String revalidatedPrefix(RunId runId) {
        return runPrefix(runId) + "revalidated/";
    }

    public static String revalidatedPartKey(RunId runId, int index) {
        return revalidatedPrefix(runId) + partName(index, BackupFormat.JSONL_GZIP);
    }

    /** Rows of the final set already deleted once (zombies): gzip JSON Lines of key, first deletion and its origin. */
    public static String resurrectedKey(RunId runId) {
        return runPrefix(runId) + "resurrected.jsonl.gz";
    }

    public static String reportKey(RunId runId) {
        return runPrefix(runId) + "report.json";
    }

    public static String receiptKey(RunId runId) {
        return runPrefix(runId) + "receipt.json";
    }

    // ---- retained rows

    public static String retainedPrefix(String dataset) {
        return RETAINED + Names.datasetName("dataset", dataset) + "/";
    }

    /** Where a row too large for a Kafka message is kept; the deletion record holds this key. */
    public static String retainedKey(String dataset, String runOrRequestId, String recordId) {
        return retainedPrefix(dataset) + Names.opaqueId("runOrRequestId", runOrRequestId) + "/"
                + Names.opaqueId("recordId", recordId) + ".json.gz";
    }
}
