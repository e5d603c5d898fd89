package io.erasure.audit.join;

import java.io.IOException;

/**
 * A stored file read by byte ranges, so that a Parquet file's footer and the column chunks a join needs are all that
 * is fetched: an export's file on S3, each range read only if the object is still the one planned.
 */
public interface RangedObject {

    /** The file's name in messages (its key). */
    String name();

    /** Its size in bytes, as planned. */
    long size();

    /**
     * Reads {@code length} bytes at {@code offset} into {@code buffer} at {@code at}.
     *
     * @throws io.erasure.backup.format.BackupIntegrityException if the object is no longer the one planned, or
     *                                                           holds fewer bytes than planned
     * @throws IOException                                       if reading failed for another reason (worth a retry)
     */
    void read(long offset, byte[] buffer, int at, int length) throws IOException;
}
