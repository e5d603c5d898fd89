package io.erasure.model.dataset;

import io.erasure.model.check.Require;
import java.util.regex.Pattern;

/**
 * Where a dataset's backups live in the platform bucket: a key prefix under {@code backups/}
 * (normalized to end with {@code /}), the parts' format, and the layout of the objects under the prefix:
 * the platform's own (one folder per snapshot, the default), a cassandra-medusa storage prefix or plain
 * {@code nodetool snapshot} uploads, whose parts are always {@link BackupFormat#SSTABLE}.
 */
public record BackupLocation(String prefix, BackupFormat format, BackupLayout layout) {

    private static final Pattern PREFIX = Pattern.compile("backups/([a-z0-9][a-z0-9._-]*/)+");

    public BackupLocation {
        Require.nonBlank("backup.prefix", prefix);
        if (!prefix.endsWith("/")) {
            prefix = prefix + "/";
        }
        if (!PREFIX.matcher(prefix).matches() || prefix.contains("..")) {
            throw new IllegalArgumentException("backup.prefix must be an S3 key prefix under 'backups/' such as"
                    + " 'backups/users/' (lower-case letters, digits, '.', '_', '-' and '/'), got "
                    + Require.echo(prefix));
        }
        layout = layout == null ? BackupLayout.PLATFORM : layout;
        if (layout.holdsSSTables() && format == null) {
            format = BackupFormat.SSTABLE;
        }
        Require.nonNull("backup.format (one of JSONL_GZIP, JSONL_ZSTD, CSV, PARQUET, SSTABLE)", format);
        if (layout.holdsSSTables() != (format == BackupFormat.SSTABLE)) {
            throw new IllegalArgumentException(
                    layout.holdsSSTables()
                            ? "backup.format of a " + layout + " backup is SSTABLE (or absent), got " + format
                            : "backup.format SSTABLE is only read from a Cassandra cluster's own backups:"
                                    + " set backup.layout to MEDUSA or NODETOOL_SNAPSHOT");
        }
    }

    /** A location in the platform's own layout. */
    public BackupLocation(String prefix, BackupFormat format) {
        this(prefix, format, BackupLayout.PLATFORM);
    }

    /** A cassandra-medusa storage prefix. */
    public static BackupLocation medusa(String prefix) {
        return new BackupLocation(prefix, BackupFormat.SSTABLE, BackupLayout.MEDUSA);
    }

    /** A prefix of plain {@code nodetool snapshot} uploads of one table, {@code <tag>/<node>/} each. */
    public static BackupLocation nodetoolSnapshots(String prefix) {
        return new BackupLocation(prefix, BackupFormat.SSTABLE, BackupLayout.NODETOOL_SNAPSHOT);
    }
}
