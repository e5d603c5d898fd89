package io.erasure.deletionlog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletionlog.DeletionLogTestSupport;
import io.erasure.deletionlog.client.DeletionLog;
import io.erasure.deletionlog.client.SealedRecords;
import io.erasure.model.contract.Topics;
import io.erasure.model.record.DeletionRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Records arrive on the topic sealed with their dataset's key, as the deletion service publishes them: they are stored
 * and read back exactly, next to plain ones from before sealing; one sealed with a key a purge removed is not stored.
 */
class SealedIngestIT extends DeletionLogTestSupport {

    private static final Instant DELETED_AT =
            Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(1, ChronoUnit.HOURS);

    @Autowired
    DeletionLog deletionLog;

    @Test
    void sealedAndPlainRecordsAreStoredAndReadBackExactly() {
        String dataset = unique("sealed");
        String run = unique("run");
        SealedRecords sealed = new SealedRecords(deletionLog.keys(), json);
        DeletionRecord sealedRecord = record(dataset, run, 1, DELETED_AT);
        DeletionRecord plainRecord = record(dataset, run, 2, DELETED_AT);

        publish(Topics.logKey(sealedRecord), sealed.sealForTopic(sealedRecord, sealed.currentKey(dataset)));
        publish(List.of(plainRecord));

        await(
                () -> get("viewer", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() == 2);
        JsonNode history = get("recovery", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":1}");
        JsonNode columns = history.get("records").get(0).get("columns");
        assertThat(StreamSupport.stream(columns.spliterator(), false)
                        .map(c ->
                                c.get("name").asString() + "=" + c.get("value").asString()))
                .containsExactlyInAnyOrder("id=1", "name=name-1", "email=1@example.com");
    }

    @Test
    void aSealedRecordOfADatasetPurgedSinceIsNotStoredNorDeadLettered() {
        String dataset = unique("purged-sealed");
        String run = unique("run");
        SealedRecords sealed = new SealedRecords(deletionLog.keys(), json);
        DeletionRecord early = record(dataset, run, 1, DELETED_AT);
        String message = sealed.sealForTopic(early, sealed.currentKey(dataset));
        deletionLog.purges().purgeDataset(dataset, "operator", "court order");

        publish(Topics.logKey(early), message);
        String later = unique("run");
        // the same row deleted again later: same key, same partition, so it is consumed after the first
        DeletionRecord after = record(dataset, later, 1, Instant.now());
        publish(Topics.logKey(after), sealed.sealForTopic(after, sealed.currentKey(dataset)));

        // the later record (a new key version) is stored; the one sealed with the purged key is not
        await(
                () -> get("viewer", "/api/log/runs/{run}/records", later),
                page -> page.get("records").size() == 1);
        assertThat(get("viewer", "/api/log/runs/{run}/records", run).get("records"))
                .isEmpty();
        assertThat(DeadLetterIT.deadLetters(early.recordId()))
                .as("purged, not unstorable: deletion goes on")
                .isEmpty();
    }
}
