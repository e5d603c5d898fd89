package io.erasure.model.dataset;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.erasure.model.check.Require;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Where a dataset's backups live in the platform bucket: a key prefix under {@code backups/}
 * (normalized to end with {@code /}), the parts' format, and the layout of the objects under the prefix:
 * the platform's own (one folder per snapshot, the default), a cassandra-medusa storage prefix or plain
 * {@code nodetool snapshot} uploads, whose parts are always {@link BackupFormat#SSTABLE}, or Amazon RDS snapshot
 * exports, whose parts are always {@link BackupFormat#PARQUET}.
 *
 * @param nodes for {@link BackupLayout#NODETOOL_SNAPSHOT} only, and required there: how many node folders make a
 *              snapshot complete (the cluster's node count). Nothing in a snapshot upload says how many nodes there
 *              are, and a tag whose first node has finished uploading must not pass for the whole cluster.
 * @param database for {@link BackupLayout#RDS_EXPORT} only, and required there: the database that holds the
 *              dataset's table in the exported instance. An export names a table {@code <database>.<schema>.<table>};
 *              the dataset gives the schema and the table.
 * @param sourceArn for {@link BackupLayout#RDS_EXPORT} only, and required there: what every audited export's
 *              {@code sourceArn} starts with, such as the ARN prefix of one instance's automated snapshots
 *              ({@code arn:aws:rds:<region>:<account>:snapshot:rds:<instance>-20}, up to the date's century so that
 *              {@code <instance>-staging} does not match). An export of another instance
 *              (staging, a restore drill) is never audited for this dataset, and neither is one of a copied snapshot,
 *              whose {@code snapshotTime} is when it was copied, not when its rows were read, as long as the prefix
 *              does not match copies (an automated snapshot's {@code rds:} name never does).
 */
public record BackupLocation(
        String prefix,
        BackupFormat format,
        BackupLayout layout,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Integer nodes,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String database,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String sourceArn) {

    /** The most nodes a snapshot's location may name. */
    public static final int MAX_NODES = 1000;

    private static final Pattern PREFIX = Pattern.compile("backups/([a-z0-9][a-z0-9._-]*/)+");
    /** A database name as RDS allows it, and as an export folder can hold it. */
    private static final Pattern DATABASE = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]{0,62}");
    /** An RDS snapshot's, cluster snapshot's, instance's or cluster's ARN, or a prefix of one past its type. */
    private static final Pattern SOURCE_ARN = Pattern.compile("arn:aws[a-z-]{0,12}:rds:[a-z0-9-]{1,32}:[0-9]{12}:"
            + "(snapshot|cluster-snapshot|db|cluster):[A-Za-z0-9:._-]{0,255}");

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
        if (layout == BackupLayout.RDS_EXPORT && format == null) {
            format = BackupFormat.PARQUET;
        }
        Require.nonNull("backup.format (one of JSONL_GZIP, JSONL_ZSTD, CSV, PARQUET, SSTABLE)", format);
        if (layout.holdsSSTables() != (format == BackupFormat.SSTABLE)) {
            throw new IllegalArgumentException(
                    layout.holdsSSTables()
                            ? "backup.format of a " + layout + " backup is SSTABLE (or absent), got " + format
                            : "backup.format SSTABLE is only read from a Cassandra cluster's own backups:"
                                    + " set backup.layout to MEDUSA or NODETOOL_SNAPSHOT");
        }
        if (layout == BackupLayout.NODETOOL_SNAPSHOT) {
            if (nodes == null || nodes < 1 || nodes > MAX_NODES) {
                throw new IllegalArgumentException("backup.nodes of a NODETOOL_SNAPSHOT backup must be the number of"
                        + " nodes whose snapshot folders make a complete snapshot (the cluster's node count, 1 to "
                        + MAX_NODES + "): nothing in an upload says how many there are, so the audit waits for that"
                        + " many; got " + nodes);
            }
        } else if (nodes != null) {
            throw new IllegalArgumentException("backup.nodes applies to NODETOOL_SNAPSHOT backups only (a Medusa"
                    + " backup names its nodes in its tokenmap.json); remove it, got " + nodes);
        }
        if (layout == BackupLayout.RDS_EXPORT) {
            if (format != BackupFormat.PARQUET) {
                throw new IllegalArgumentException(
                        "backup.format of an RDS_EXPORT backup is PARQUET (or absent), got " + format);
            }
            if (database == null || !DATABASE.matcher(database).matches()) {
                throw new IllegalArgumentException("backup.database of an RDS_EXPORT backup must name the database"
                        + " that holds the dataset's table (a letter or '_', then letters, digits, '_' and '$', as the"
                        + " export names it in <database>/<schema>.<table>/), got "
                        + (database == null ? "nothing" : Require.echo(database)));
            }
            if (sourceArn == null || !SOURCE_ARN.matcher(sourceArn).matches()) {
                throw new IllegalArgumentException("backup.sourceArn of an RDS_EXPORT backup must be what the audited"
                        + " exports' sourceArn starts with, such as arn:aws:rds:eu-west-1:123456789012:snapshot:rds:"
                        + "accounts-db-20 for one instance's automated snapshots (never a prefix that matches copied"
                        + " snapshots: a copy's snapshotTime is when it was copied), got "
                        + (sourceArn == null ? "nothing" : Require.echo(sourceArn)));
            }
        } else if (database != null || sourceArn != null) {
            throw new IllegalArgumentException("backup.database and backup.sourceArn apply to RDS_EXPORT backups only;"
                    + " remove them, got " + Require.echo(database != null ? database : String.valueOf(sourceArn)));
        }
    }

    /** A location whose layout needs neither {@code nodes} nor {@code database}, or {@code nodes} only. */
    public BackupLocation(String prefix, BackupFormat format, BackupLayout layout, @Nullable Integer nodes) {
        this(prefix, format, layout, nodes, null, null);
    }

    /** A location in the platform's own layout. */
    public BackupLocation(String prefix, BackupFormat format) {
        this(prefix, format, BackupLayout.PLATFORM, null, null, null);
    }

    /** A location in a layout that names its own nodes (all but {@link BackupLayout#NODETOOL_SNAPSHOT}). */
    public BackupLocation(String prefix, BackupFormat format, BackupLayout layout) {
        this(prefix, format, layout, null, null, null);
    }

    /** A cassandra-medusa storage prefix. */
    public static BackupLocation medusa(String prefix) {
        return new BackupLocation(prefix, BackupFormat.SSTABLE, BackupLayout.MEDUSA, null, null, null);
    }

    /**
     * A prefix of plain {@code nodetool snapshot} uploads of one table, {@code <tag>/<node>/} each, from a cluster of
     * {@code nodes} nodes.
     */
    public static BackupLocation nodetoolSnapshots(String prefix, int nodes) {
        return new BackupLocation(prefix, BackupFormat.SSTABLE, BackupLayout.NODETOOL_SNAPSHOT, nodes, null, null);
    }

    /**
     * A prefix of Amazon RDS snapshot exports (the exports' S3 prefix) of a table in {@code database}, of snapshots
     * whose ARN starts with {@code sourceArn}.
     */
    public static BackupLocation rdsExports(String prefix, String database, String sourceArn) {
        return new BackupLocation(prefix, BackupFormat.PARQUET, BackupLayout.RDS_EXPORT, null, database, sourceArn);
    }
}
