package io.erasure.audit.cassandra;

import java.util.Optional;

/** A Cassandra cluster's backups in one layout under one prefix, read from their metadata only. */
interface ClusterBackups {

    /** The newest complete backup (by start), or empty if none is complete. */
    Optional<ClusterBackup> latestComplete();

    /**
     * The backup {@code name}, read again.
     *
     * @throws io.erasure.backup.format.BackupIntegrityException if it is incomplete, or a metadata file is missing or
     *                                                           malformed
     */
    ClusterBackup read(String name);
}
