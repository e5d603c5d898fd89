package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.record.ColumnValue;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The columns of rows too large for a log message, which the deletion service kept in the platform bucket under
 * {@code retained/} (the record holds the key): a recovery loads them into the record and restores it like any other.
 */
public class RetainedRows {

    private final S3Client s3;
    private final String bucket;
    private final JsonMapper json;

    /** {@code s3} and {@code bucket} null where this service has no platform bucket: retained rows then cannot be restored. */
    public RetainedRows(S3Client s3, String bucket, JsonMapper json) {
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
    }

    /** The record with its retained columns in it (and no reference left); {@link Unavailable} if they cannot be read. */
    public LoggedRecord load(LoggedRecord record) {
        if (s3 == null || bucket == null) {
            throw new Unavailable("the row's columns are retained in S3 at " + record.retainedRef() + ", and this service"
                    + " has no platform bucket to read them from: set erasure.s3.*");
        }
        List<ColumnValue> columns;
        try {
            byte[] bytes = s3.getObjectAsBytes(r -> r.bucket(bucket).key(record.retainedRef())).asByteArray();
            columns = json.readValue(bytes, new TypeReference<List<ColumnValue>>() { });
        } catch (SdkException e) {
            throw new Unavailable("the row's retained columns s3://" + bucket + "/" + record.retainedRef()
                    + " could not be read: " + e.getMessage());
        } catch (JacksonException e) {
            throw new Unavailable("the row's retained columns s3://" + bucket + "/" + record.retainedRef()
                    + " are not a list of columns: " + e.getOriginalMessage());
        }
        return new LoggedRecord(record.recordId(), record.dataset(), record.keyHash(), record.deletedAt(), record.runId(),
                record.requestId(), record.taskId(), record.batchId(), record.cutoffMicros(), null, record.purged(),
                record.primaryKey(), columns, record.anonymised());
    }

    /** The retained columns of a record cannot be read (no bucket, gone, unreadable). */
    public static final class Unavailable extends RuntimeException {
        public Unavailable(String message) {
            super(message);
        }
    }
}
