package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.model.record.ColumnValue;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The columns of rows too large for a log message, which the deletion service kept in the platform bucket under
 * {@code retained/} (the record holds the key), sealed with the dataset's key ({@link SealedRecords}; plain ones from
 * before sealing are read as they are): a recovery loads them into the record and restores it like any other.
 */
public class RetainedRows {

    private final S3Client s3;
    private final String bucket;
    private final Supplier<SealedRecords> sealed;

    /**
     * {@code s3} and {@code bucket} null where this service has no platform bucket: retained rows then cannot be
     * restored.
     */
    public RetainedRows(S3Client s3, String bucket, Supplier<SealedRecords> sealed) {
        this.s3 = s3;
        this.bucket = bucket;
        this.sealed = sealed;
    }

    /**
     * The record with its retained columns in it (and no reference left); {@link Unavailable} if they cannot be read.
     */
    public LoggedRecord load(LoggedRecord record) {
        if (s3 == null || bucket == null) {
            throw new Unavailable("the row's columns are retained in S3 at " + record.retainedRef()
                    + ", and this service" + " has no platform bucket to read them from: set erasure.s3.*");
        }
        List<ColumnValue> columns;
        try {
            byte[] bytes = s3.getObjectAsBytes(r -> r.bucket(bucket).key(record.retainedRef()))
                    .asByteArray();
            columns = sealed.get().openRetained(bytes);
        } catch (SdkException e) {
            throw new Unavailable("the row's retained columns s3://" + bucket + "/" + record.retainedRef()
                    + " could not be read: " + e.getMessage());
        } catch (SealedRecords.KeyGone e) {
            throw new Unavailable("the row's retained columns cannot be decrypted: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new Unavailable("the row's retained columns s3://" + bucket + "/" + record.retainedRef()
                    + " are unreadable: " + e.getMessage());
        }
        return new LoggedRecord(
                record.recordId(),
                record.dataset(),
                record.keyHash(),
                record.deletedAt(),
                record.runId(),
                record.requestId(),
                record.taskId(),
                record.batchId(),
                record.cutoffMicros(),
                null,
                record.purged(),
                record.primaryKey(),
                columns,
                record.anonymised(),
                record.keptNewer());
    }

    /** The retained columns of a record cannot be read (no bucket, gone, unreadable). */
    public static final class Unavailable extends RuntimeException {
        public Unavailable(String message) {
            super(message);
        }
    }
}
