package io.erasure.audit.sstable;

import io.erasure.model.check.Names;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One unit of a Cassandra backup's audit: the SSTables of every replica that holds the unit's token range (each
 * directory one node's copy of the table), the table's schema as the backup saved it, and when to read it as of.
 *
 * @param tokenRange null for every partition of the SSTables
 */
public record SSTableUnit(
        String keyspace,
        String table,
        Path schemaFile,
        List<Path> sstableDirectories,
        List<String> keyColumns,
        String identifierColumn,
        @Nullable TokenRange tokenRange,
        long nowInSeconds) {

    /** Murmur3 tokens in {@code (after, upTo]}. */
    public record TokenRange(long after, long upTo) {

        public TokenRange {
            if (after >= upTo) {
                throw new IllegalArgumentException("token range (" + after + ", " + upTo + "] is empty");
            }
        }
    }

    public SSTableUnit {
        Names.identifier("keyspace", keyspace);
        Names.identifier("table", table);
        sstableDirectories = List.copyOf(sstableDirectories);
        keyColumns = List.copyOf(keyColumns);
        if (sstableDirectories.isEmpty()) {
            throw new IllegalArgumentException("an SSTable unit needs at least one directory of SSTables");
        }
    }

    String describe() {
        return keyspace + "." + table
                + (tokenRange == null ? "" : " tokens (" + tokenRange.after() + ", " + tokenRange.upTo() + "]");
    }
}
