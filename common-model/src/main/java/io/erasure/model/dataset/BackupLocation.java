package io.erasure.model.dataset;

import io.erasure.model.check.Require;
import java.util.regex.Pattern;

/**
 * Where a dataset's backups live in the platform bucket: a key prefix under {@code backups/}
 * (normalized to end with {@code /}) holding one folder per snapshot, and the parts' format.
 */
public record BackupLocation(String prefix, BackupFormat format) {

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
        Require.nonNull("backup.format (one of JSONL_GZIP, JSONL_ZSTD, CSV, PARQUET)", format);
    }
}
