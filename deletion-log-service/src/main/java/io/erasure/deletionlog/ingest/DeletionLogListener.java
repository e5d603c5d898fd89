package io.erasure.deletionlog.ingest;

import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.LogPurges;
import io.erasure.deletionlog.client.LogWriter;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.model.contract.Topics;
import io.erasure.model.record.DeletionRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores every deletion record of {@code erasure.deletion.log} in the Cassandra log, a poll's batch at
 * a time (sealed with their dataset's key, or plain as published before sealing: {@link SealedRecords}); offsets are
 * committed only after the whole batch is stored (a failure redelivers it, and the
 * writes are idempotent). Only committed (read_committed) records are seen. A record that can never be
 * stored is not skipped: it goes to the dead-letter topic ({@link DeadLetters}), acknowledged before the
 * batch's offsets are committed, and deletion of its dataset stops until it is resolved.
 */
@Component
public class DeletionLogListener {

    public static final String GROUP = "deletion-log-service";

    private static final Logger log = LoggerFactory.getLogger(DeletionLogListener.class);

    private final LogWriter writer;
    private final LogPurges purges;
    private final SealedRecords sealed;
    private final DeadLetters deadLetters;
    private final Counter stored;
    private final Counter skipped;

    public DeletionLogListener(
            DeletionLog deletionLog, DeadLetters deadLetters, JsonMapper json, MeterRegistry meters) {
        this.writer = deletionLog.writer();
        this.purges = deletionLog.purges();
        this.sealed = new SealedRecords(deletionLog.keys(), json);
        this.deadLetters = deadLetters;
        this.stored = meters.counter("erasure.deletion_log.records", "outcome", "stored");
        this.skipped = meters.counter("erasure.deletion_log.records", "outcome", "skipped");
    }

    /** Whether a purge of the message's whole dataset came at or after its deletion. */
    private boolean purgedAfterDeletion(SealedRecords batch, String message) {
        SealedRecords.TopicMessage envelope = batch.envelopeOf(message).orElseThrow();
        return purges.history(envelope.dataset()).stream()
                .anyMatch(purge -> purge.scope() == LogPurges.Scope.DATASET
                        && !purge.purgedAt().isBefore(envelope.deletedAt()));
    }

    @KafkaListener(topics = Topics.DELETION_LOG, groupId = GROUP, batch = "true")
    public void onRecords(List<ConsumerRecord<String, String>> messages) {
        List<DeletionRecord> records = new ArrayList<>(messages.size());
        List<DeadLetters.DeadLetter> unstorable = new ArrayList<>();
        SealedRecords batch = sealed.forOneBatch();
        int purgedBeforeIngest = 0;
        for (ConsumerRecord<String, String> message : messages) {
            try {
                records.add(batch.openFromTopic(message.value()));
            } catch (SealedRecords.KeyGone e) {
                if (purgedAfterDeletion(batch, message.value())) {
                    // its dataset was purged while it was on the topic: its copy there is unreadable, as it must be
                    purgedBeforeIngest++;
                } else {
                    unstorable.add(new DeadLetters.DeadLetter(message, e.getMessage()));
                }
            } catch (JacksonException | IllegalArgumentException e) {
                // it can never be stored; the deletion service validates what it publishes, so this is a bug to look at
                unstorable.add(new DeadLetters.DeadLetter(message, "unreadable deletion record: " + e.getMessage()));
            }
        }
        deadLetters.send(unstorable);
        LogWriter.Written written = writer.write(records);
        stored.increment(written.written());
        skipped.increment(written.skippedPurged() + written.skippedExpired() + purgedBeforeIngest);
        if (written.skippedPurged() + written.skippedExpired() > 0) {
            log.info(
                    "{} records not stored: {} of purged keys or datasets, {} older than the retention",
                    written.skippedPurged() + written.skippedExpired(),
                    written.skippedPurged(),
                    written.skippedExpired());
        }
    }
}
