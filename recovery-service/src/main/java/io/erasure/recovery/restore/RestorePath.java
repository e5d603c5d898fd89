package io.erasure.recovery.restore;

/** How a recovery writes its rows back (in a dry-run: how a restore of the same records would). */
public enum RestorePath {
    /** Through the dataset's store adapter, in throttled batches. */
    ONLINE,
    /** Cassandra only, for large recoveries: SSTables written in a child JVM, imported into the node, read back. */
    BULK
}
