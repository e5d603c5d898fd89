package io.erasure.infra.cassandra.scan;

import io.erasure.identifiers.IdentifierHash;
import io.erasure.identifiers.IdentifierKind;
import io.erasure.identifiers.IdentifierSet;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.cassandra.db.DecoratedKey;
import org.apache.cassandra.db.marshal.AbstractType;
import org.apache.cassandra.db.marshal.AsciiType;
import org.apache.cassandra.db.marshal.ByteType;
import org.apache.cassandra.db.marshal.CompositeType;
import org.apache.cassandra.db.marshal.Int32Type;
import org.apache.cassandra.db.marshal.LongType;
import org.apache.cassandra.db.marshal.ShortType;
import org.apache.cassandra.db.marshal.UTF8Type;
import org.apache.cassandra.db.rows.Cell;
import org.apache.cassandra.db.rows.RangeTombstoneMarker;
import org.apache.cassandra.db.rows.Row;
import org.apache.cassandra.db.rows.Unfiltered;
import org.apache.cassandra.db.rows.UnfilteredRowIterator;
import org.apache.cassandra.schema.ColumnMetadata;
import org.apache.cassandra.schema.TableMetadata;

/**
 * Goes through merged partitions as a read at {@code nowInSeconds} sees them and reports the live rows whose
 * identifier is in the set. Counts, per scan: partitions, live rows, candidates, what tombstones still hold on
 * disk ("deleted, not yet purged": a partition deletion, a range tombstone, a row with no live data left), and the
 * partitions of deletable identifiers that hold live static columns and no live row (no full key names them).
 */
final class RowVisitor {

    /** Receives a candidate as the JSON object the join writes. */
    @FunctionalInterface
    interface Out {
        void accept(Map<String, Object> candidate) throws IOException;
    }

    private final TableMetadata metadata;
    private final IdentifierSet identifiers;
    private final long nowInSeconds;
    private final ColumnMetadata identifier;
    private final List<ColumnMetadata> keyColumns;
    private final boolean numeric;
    private final boolean strictLiveness;
    private final long[] a = new long[1];
    private final long[] b = new long[1];

    /** How the identifier column's values are read for the lookup. */
    private enum Shape {
        TEXT,
        BIGINT,
        INT,
        SMALLINT,
        TINYINT,
        OTHER
    }

    private final Shape shape;
    private final byte[] digits = new byte[Digits.MAX_LENGTH];

    private long partitions;
    private long rowsScanned;
    private long candidates;
    private long deletedNotPurged;
    private long staticOnlyPartitions;

    private final boolean ceiling;

    /** @param ceiling read and count rows only, looking no identifier up (the benchmark's ceiling) */
    RowVisitor(TableReader table, IdentifierSet identifiers, long nowInSeconds, boolean ceiling) {
        this.ceiling = ceiling;
        this.metadata = table.metadata();
        this.identifiers = identifiers;
        this.nowInSeconds = nowInSeconds;
        this.identifier = table.identifier();
        this.keyColumns = table.keyColumns();
        this.numeric = identifiers.kind() == IdentifierKind.NUMERIC;
        this.strictLiveness = metadata.enforceStrictLiveness();
        this.shape = shape(identifier.type.unwrap());
    }

    private static Shape shape(AbstractType<?> type) {
        if (type instanceof UTF8Type || type instanceof AsciiType) {
            return Shape.TEXT;
        }
        if (type instanceof LongType) {
            return Shape.BIGINT;
        }
        if (type instanceof Int32Type) {
            return Shape.INT;
        }
        if (type instanceof ShortType) {
            return Shape.SMALLINT;
        }
        if (type instanceof ByteType) {
            return Shape.TINYINT;
        }
        return Shape.OTHER;
    }

    void partition(UnfilteredRowIterator partition, Out out) throws IOException {
        partitions++;
        if (!partition.partitionLevelDeletion().isLive()) {
            deletedNotPurged++;
        }
        ByteBuffer[] partitionKey = partitionKey(partition.partitionKey());
        Row staticRow = partition.staticRow();
        boolean liveRows = false;
        while (partition.hasNext()) {
            Unfiltered unfiltered = partition.next();
            if (unfiltered.isRangeTombstoneMarker()) {
                if (((RangeTombstoneMarker) unfiltered).isOpen(false)) {
                    deletedNotPurged++;
                }
                continue;
            }
            Row row = (Row) unfiltered;
            if (!row.hasLiveData(nowInSeconds, strictLiveness)) {
                deletedNotPurged++;
                continue;
            }
            liveRows = true;
            rowsScanned++;
            if (ceiling) {
                continue;
            }
            ByteBuffer value = identifierValue(partitionKey, staticRow, row);
            if (value != null && matches(value)) {
                candidates++;
                out.accept(candidate(partitionKey, row, value));
            }
        }
        if (!liveRows
                && !metadata.clusteringColumns().isEmpty()
                && staticRow.hasLiveData(nowInSeconds, strictLiveness)
                && (identifier.isPartitionKey() || identifier.isStatic())) {
            // CQL shows such a partition as one row with null clustering columns: no full key names it, so a
            // deletable identifier's static columns are reported apart rather than as a candidate
            ByteBuffer value = identifierValue(partitionKey, staticRow, staticRow);
            if (value != null && matches(value)) {
                staticOnlyPartitions++;
            }
        }
    }

    private ByteBuffer[] partitionKey(DecoratedKey key) {
        if (metadata.partitionKeyType instanceof CompositeType composite) {
            return composite.split(key.getKey());
        }
        return new ByteBuffer[] {key.getKey()};
    }

    private ByteBuffer identifierValue(ByteBuffer[] partitionKey, Row staticRow, Row row) {
        if (identifier.isPartitionKey()) {
            return partitionKey[identifier.position()];
        }
        if (identifier.isClusteringColumn()) {
            return row.isStatic() ? null : row.clustering().bufferAt(identifier.position());
        }
        Cell<?> cell = identifier.isStatic() ? staticRow.getCell(identifier) : row.getCell(identifier);
        return cell == null || !cell.isLive(nowInSeconds) ? null : cell.buffer();
    }

    private boolean matches(ByteBuffer value) {
        if (!value.hasRemaining()) {
            return false;
        }
        if (numeric) {
            if (shape == Shape.OTHER) {
                return false; // TableReader accepts integer sets for integer columns only
            }
            return identifiers.contains(integer(value), 0);
        }
        switch (shape) {
            case TEXT -> hash(value);
            case OTHER -> IdentifierHash.hash(text(value), a, b, 0);
            default -> {
                int length = Digits.write(integer(value), digits);
                IdentifierHash.hash(digits, digits.length - length, digits.length, a, b, 0);
            }
        }
        return identifiers.contains(a[0], b[0]);
    }

    /** A text identifier's value is its UTF-8 bytes: hashed where they lie, as the audit hashes the string. */
    private void hash(ByteBuffer value) {
        if (value.hasArray()) {
            int from = value.arrayOffset() + value.position();
            IdentifierHash.hash(value.array(), from, from + value.remaining(), a, b, 0);
            return;
        }
        byte[] bytes = new byte[value.remaining()];
        value.duplicate().get(bytes);
        IdentifierHash.hash(bytes, 0, bytes.length, a, b, 0);
    }

    /** A fixed-width integer's value, read as Cassandra stores it (big-endian, two's complement). */
    private long integer(ByteBuffer value) {
        int at = value.position();
        return switch (shape) {
            case BIGINT -> value.getLong(at);
            case INT -> value.getInt(at);
            case SMALLINT -> value.getShort(at);
            case TINYINT -> value.get(at);
            default -> throw new IllegalStateException("not a fixed-width integer column: " + identifier.type);
        };
    }

    /** The identifier as the audit spells it: a string as it is, a UUID canonical, an integer's decimal digits. */
    private String text(ByteBuffer value) {
        Object composed = identifier.type.compose(value);
        if (composed instanceof UUID uuid) {
            return uuid.toString();
        }
        return composed.toString();
    }

    private Map<String, Object> candidate(ByteBuffer[] partitionKey, Row row, ByteBuffer identifierValue)
            throws IOException {
        Map<String, Object> key = new LinkedHashMap<>();
        for (ColumnMetadata column : keyColumns) {
            ByteBuffer value = column.isPartitionKey()
                    ? partitionKey[column.position()]
                    : row.clustering().bufferAt(column.position());
            key.put(column.name.toString(), PlatformValues.of(column.type, value));
        }
        Map<String, Object> candidate = new LinkedHashMap<>();
        candidate.put("key", key);
        candidate.put("identifier", text(identifierValue));
        candidate.put("writeTimeMicros", writeTime(row));
        return candidate;
    }

    /** The row's latest live write: its primary key liveness and every live cell. */
    private Long writeTime(Row row) {
        long latest = Long.MIN_VALUE;
        if (!row.primaryKeyLivenessInfo().isEmpty()) {
            latest = row.primaryKeyLivenessInfo().timestamp();
        }
        for (Cell<?> cell : row.cells()) {
            if (cell.isLive(nowInSeconds)) {
                latest = Math.max(latest, cell.timestamp());
            }
        }
        return latest == Long.MIN_VALUE ? null : latest;
    }

    long partitions() {
        return partitions;
    }

    long rowsScanned() {
        return rowsScanned;
    }

    long candidates() {
        return candidates;
    }

    long deletedNotPurged() {
        return deletedNotPurged;
    }

    long staticOnlyPartitions() {
        return staticOnlyPartitions;
    }
}
