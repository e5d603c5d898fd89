package io.erasure.deletion.log;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.record.DeletionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * Invariant 1: a row is deleted only after its deletion record is acknowledged by the
 * {@code erasure.deletion.log} topic (idempotent producer, acks=all). {@link #append} returns only
 * when every record of the batch is acknowledged, and throws otherwise, so the caller never deletes
 * a row whose record might be missing. A record too large for one message keeps its columns in S3
 * under {@code retained/} (written first) and carries the reference.
 */
public class WriteAheadDeletionLog {

    private final KafkaTemplate<String, String> kafka;
    private final S3Client s3;
    private final String bucket;
    private final JsonMapper json;
    private final int maxRecordBytes;

    public WriteAheadDeletionLog(KafkaTemplate<String, String> kafka, S3Client s3, String bucket, JsonMapper json,
                                 int maxRecordBytes) {
        this.kafka = kafka;
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
        this.maxRecordBytes = maxRecordBytes;
    }

    public void append(List<DeletionRecord> records) {
        List<CompletableFuture<SendResult<String, String>>> acks = new ArrayList<>();
        for (DeletionRecord record : records) {
            String message = json.writeValueAsString(record);
            if (message.length() > maxRecordBytes) {
                String key = S3Layout.retainedKey(record.dataset(), record.originId(), record.recordId());
                s3.putObject(r -> r.bucket(bucket).key(key).contentType("application/json"),
                        RequestBody.fromString(json.writeValueAsString(record.columns())));
                message = json.writeValueAsString(record.withRetainedColumns(key));
            }
            acks.add(kafka.send(Topics.DELETION_LOG, Topics.logKey(record), message));
        }
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new LogNotAcknowledged("deletion log did not acknowledge " + records.size() + " records; nothing of this"
                    + " batch is deleted: " + e.getMessage(), e);
        }
    }

    /** The log did not confirm every record: the batch must not delete. */
    public static final class LogNotAcknowledged extends RuntimeException {
        public LogNotAcknowledged(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
