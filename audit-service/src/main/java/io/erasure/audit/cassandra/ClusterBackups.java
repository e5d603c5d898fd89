package io.erasure.audit.cassandra;

/** A Cassandra cluster's backups in one layout under one prefix, read from their metadata only. */
interface ClusterBackups {

    /**
     * The newest complete backup (by start).
     *
     * @throws io.erasure.backup.format.BackupIntegrityException if none is complete, saying where it looked and why
     *                                                           the newest is not
     */
    ClusterBackup latestComplete();

    /**
     * The backup {@code name}, read again.
     *
     * @throws io.erasure.backup.format.BackupIntegrityException if it is incomplete, or a metadata file is missing or
     *                                                           malformed
     */
    ClusterBackup read(String name);

    /**
     * How {@code object} of {@code table} (as this layout's {@link #read} listed it) is checked as it streams.
     *
     * @throws io.erasure.backup.format.BackupIntegrityException if it cannot be checked
     */
    ObjectCheck check(ClusterBackup.Table table, ClusterBackup.StoredObject object);
}
