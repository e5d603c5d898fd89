package io.erasure.deletion.log;

import io.erasure.deletionlog.client.DatasetKeys;
import io.erasure.deletionlog.client.FrozenSpec;
import io.erasure.deletionlog.client.FrozenSpecs;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerConfig;
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
 * under {@code retained/} (written first) and carries the reference. "Too large" is measured on the message as it is
 * sent: its UTF-8 bytes and its key's, against the producer's {@code max.request.size} less a margin for the record
 * batch's framing (a row of CJK text is three bytes a character: counting characters let a 1.5 MB message through to be
 * refused by the broker and retried for ever, blocking its shard).
 *
 * <p>Nothing of a row leaves in clear (DESIGN invariant 8): the message and the retained object are sealed with the
 * dataset's current data key ({@link SealedRecords}), so a legal purge of the dataset's keys makes every copy
 * unreadable at once, the topic's and S3's as well as the Cassandra log's. Only the dataset, record id and deletion
 * time are in clear.
 *
 * <p>With a task's records goes the spec the task deletes under ({@link #send(DeletionTask, List)}): written to the
 * log's {@code frozen_specs} ({@link FrozenSpecs}) and acknowledged like the records, so every record in the log has
 * the spec its row was deleted under, which recoveries and reapplications use instead of a caller's.
 */
public class WriteAheadDeletionLog {

    private final KafkaTemplate<String, String> kafka;
    private final S3Client s3;
    private final String bucket;
    private final JsonMapper json;
    private final int maxRecordBytes;
    private final Supplier<SealedRecords> sealing;
    private final Supplier<FrozenSpecs> frozenSpecs;

    /** Room left in a request for the record batch's and the record's framing and headers. */
    static final int FRAMING_MARGIN_BYTES = 16 * 1024;

    private static final int DEFAULT_MAX_REQUEST_SIZE = 1_048_576;

    /**
     * {@code maxRecordBytes}: a ceiling of its own; the producer's {@code max.request.size} less a margin also applies.
     */
    public WriteAheadDeletionLog(
            KafkaTemplate<String, String> kafka,
            S3Client s3,
            String bucket,
            JsonMapper json,
            int maxRecordBytes,
            Supplier<SealedRecords> sealing,
            Supplier<FrozenSpecs> frozenSpecs) {
        this.sealing = sealing;
        this.frozenSpecs = frozenSpecs;
        this.kafka = kafka;
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
        this.maxRecordBytes = Math.min(maxRecordBytes, maxRequestSize(kafka) - FRAMING_MARGIN_BYTES);
    }

    private static int maxRequestSize(KafkaTemplate<String, String> kafka) {
        Object configured =
                kafka.getProducerFactory().getConfigurationProperties().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        return configured == null
                ? DEFAULT_MAX_REQUEST_SIZE
                : Integer.parseInt(configured.toString().trim());
    }

    /** The bytes Kafka counts for this message's key and value. */
    static int messageBytes(String key, String value) {
        return key.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * Appends {@code records} and returns once every one is acknowledged; throws {@link LogNotAcknowledged} otherwise.
     */
    public void append(List<DeletionRecord> records) {
        send(records).await();
    }

    /** The acknowledgements of records sent to the log. */
    @FunctionalInterface
    public interface Acknowledgements {
        /** Returns once every record is acknowledged; throws {@link LogNotAcknowledged} otherwise. */
        void await();
    }

    /**
     * {@link #send(List)} of {@code task}'s records, with the spec the task deletes them under frozen in the log
     * (written once per batch, so it lives as long as the batch's records): the acknowledgements cover both.
     */
    public Acknowledgements send(DeletionTask task, List<DeletionRecord> records) {
        if (records.isEmpty()) {
            return send(records);
        }
        Instant frozenAt = records.get(0).deletedAt();
        CompletableFuture<Void> frozen = frozenSpecs
                .get()
                .writeAsync(FrozenSpec.of(task.originId(), task.spec(), task.copyOf(), frozenAt, json));
        Acknowledgements logged = send(records);
        return () -> {
            logged.await();
            try {
                frozen.get(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LogNotAcknowledged(
                        "interrupted while the deletion log stored the frozen spec of " + task.dataset()
                                + "; nothing of this batch is deleted",
                        e);
            } catch (Exception e) {
                throw new LogNotAcknowledged(
                        "the deletion log did not store the frozen spec of " + task.dataset() + " for "
                                + task.originId() + "; nothing of this batch is deleted: " + e.getMessage(),
                        e);
            }
        };
    }

    /**
     * Sends {@code records} without waiting for the log: the caller may do other work that does not delete while the
     * acknowledgements arrive, and must {@linkplain Acknowledgements#await await} them before it deletes any row.
     */
    public Acknowledgements send(List<DeletionRecord> records) {
        List<CompletableFuture<SendResult<String, String>>> acks = new ArrayList<>();
        SealedRecords sealed = sealing.get();
        Map<String, DatasetKeys.DataKey> keys = new HashMap<>();
        for (DeletionRecord record : records) {
            DatasetKeys.DataKey dataKey = keys.computeIfAbsent(record.dataset(), sealed::currentKey);
            String messageKey = Topics.logKey(record);
            String message = sealed.sealForTopic(record, dataKey);
            if (messageBytes(messageKey, message) > maxRecordBytes) {
                String key = S3Layout.retainedKey(record.dataset(), record.originId(), record.recordId());
                s3.putObject(
                        r -> r.bucket(bucket).key(key).contentType("application/json"),
                        RequestBody.fromBytes(sealed.sealRetained(record, dataKey)));
                message = sealed.sealForTopic(record.withRetainedColumns(key), dataKey);
                if (messageBytes(messageKey, message) > maxRecordBytes) {
                    // only the key is left, and no retry can make it smaller: refuse the batch rather than block the
                    // shard
                    throw new IllegalArgumentException("the deletion record of a row of " + record.dataset() + " is "
                            + messageBytes(messageKey, message) + " bytes even with its columns retained in S3 (its"
                            + " primary key is that large), over the " + maxRecordBytes + " a log message may have");
                }
            }
            acks.add(kafka.send(Topics.DELETION_LOG, messageKey, message));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new));
        return () -> {
            try {
                kafka.flush(); // the batch's last records go now, not after the producer's linger
                all.get(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LogNotAcknowledged(
                        "interrupted while waiting for the deletion log to acknowledge " + records.size()
                                + " records; nothing of this batch is deleted",
                        e);
            } catch (Exception e) {
                throw new LogNotAcknowledged(
                        "deletion log did not acknowledge " + records.size() + " records; nothing of"
                                + " this batch is deleted: " + e.getMessage(),
                        e);
            }
        };
    }

    /** The log did not confirm every record: the batch must not delete. */
    public static final class LogNotAcknowledged extends RuntimeException {
        public LogNotAcknowledged(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
