package io.erasure.deletionlog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletionlog.DeletionLogTestSupport;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Records published on the topic land in the log once, answer queries by key, window and run, and can be purged. */
class DeletionLogIT extends DeletionLogTestSupport {

    private static final Instant DELETED_AT =
            Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(2, ChronoUnit.HOURS);

    @Test
    void aRecordPublishedTwiceIsStoredOnce() {
        String dataset = unique("twice");
        String run = unique("run");
        DeletionRecord record = record(dataset, run, 1, DELETED_AT);

        publish(List.of(record, record));
        publish(List.of(
                record(dataset, run, 2, DELETED_AT))); // a later record: once it is in, the duplicates were consumed

        JsonNode byRun = await(
                () -> get("viewer", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() >= 2);
        assertThat(byRun.get("records")).hasSize(2);
        assertThat(get("viewer", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":1}")
                        .get("records"))
                .hasSize(1);
        assertThat(get(
                                "viewer",
                                "/api/log/{dataset}/records?from={from}&to={to}",
                                dataset,
                                DELETED_AT.minusSeconds(1),
                                DELETED_AT.plusSeconds(1))
                        .get("records"))
                .hasSize(2);
    }

    @Test
    void whoMayReadWhat() {
        String dataset = unique("roles");
        String run = unique("run");
        DeletionRecord record = record(dataset, run, 7, DELETED_AT);
        publish(List.of(record));

        JsonNode asViewer = await(
                () -> get("viewer", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":7}"),
                history -> history.get("records").size() == 1);
        JsonNode asRecovery = get("recovery", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":7}");

        JsonNode viewerRecord = asViewer.get("records").get(0);
        assertThat(asViewer.get("deleted").asBoolean()).isTrue();
        assertThat(viewerRecord.get("runId").asString()).isEqualTo(run);
        assertThat(viewerRecord.get("deletedAt").asString()).isEqualTo(DELETED_AT.toString());
        assertThat(viewerRecord.get("primaryKey").get("id").asLong()).isEqualTo(7);
        assertThat(viewerRecord.get("columns").isNull())
                .as("columns hidden from VIEWER")
                .isTrue();
        JsonNode columns = asRecovery.get("records").get(0).get("columns");
        assertThat(columns).hasSize(3);
        assertThat(StreamSupport.stream(columns.spliterator(), false)
                        .map(c ->
                                c.get("name").asString() + "=" + c.get("value").asString()))
                .containsExactlyInAnyOrder("id=7", "name=name-7", "email=7@example.com");
        assertThat(StreamSupport.stream(columns.spliterator(), false)
                        .filter(c -> c.get("name").asString().equals("email"))
                        .findFirst()
                        .orElseThrow()
                        .get("ttlSeconds")
                        .asInt())
                .isEqualTo(86_400);

        JsonNode unknownKey = get("viewer", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":8}");
        assertThat(unknownKey.get("deleted").asBoolean()).isFalse();
    }

    @Test
    void windowsAndRunsArePagedWithACursor() {
        String dataset = unique("paged");
        String run = unique("run");
        List<DeletionRecord> records = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            // spread over three hourly buckets
            records.add(record(dataset, run, 100 + i, DELETED_AT.plus(i * 25L, ChronoUnit.MINUTES)));
        }
        publish(records);
        await(
                () -> get("viewer", "/api/log/runs/{run}/records?limit=100", run),
                page -> page.get("records").size() == 7);

        Set<String> fromWindow = readAll("/api/log/" + dataset + "/records?from=" + DELETED_AT.minusSeconds(1) + "&to="
                + DELETED_AT.plus(4, ChronoUnit.HOURS) + "&limit=3");
        Set<String> fromRun = readAll("/api/log/runs/" + run + "/records?limit=2");
        Set<String> narrow = readAll("/api/log/" + dataset + "/records?from=" + DELETED_AT.plus(25, ChronoUnit.MINUTES)
                + "&to=" + DELETED_AT.plus(75, ChronoUnit.MINUTES) + "&limit=10");

        Set<String> expected =
                new HashSet<>(records.stream().map(DeletionRecord::recordId).toList());
        assertThat(fromWindow).isEqualTo(expected);
        assertThat(fromRun).isEqualTo(expected);
        assertThat(narrow)
                .containsExactlyInAnyOrder(
                        records.get(1).recordId(), records.get(2).recordId());
    }

    @Test
    void aPurgedKeyReadsAsPurgedAndIsNotStoredAgain() {
        String dataset = unique("purge-key");
        String run = unique("run");
        DeletionRecord purged = record(dataset, run, 1, DELETED_AT);
        DeletionRecord kept = record(dataset, run, 2, DELETED_AT);
        publish(List.of(purged, kept));
        await(
                () -> get("viewer", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() == 2);

        as("viewer")
                .post()
                .uri("/api/log/{dataset}/purge", dataset)
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"key\": {\"id\": 1}, \"reason\": \"court order\"}")
                .exchange()
                .expectStatus()
                .isForbidden();
        as("operator")
                .post()
                .uri("/api/log/{dataset}/purge", dataset)
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"key\": {\"id\": 1}, \"reason\": \"court order\"}")
                .exchange()
                .expectStatus()
                .isOk();
        publish(List.of(purged, record(dataset, run, 3, DELETED_AT))); // a late re-delivery, then a marker record
        await(
                () -> get("viewer", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() >= 2
                        && ids(page)
                                .contains(record(dataset, run, 3, DELETED_AT).recordId()));

        JsonNode history = get("recovery", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":1}");
        assertThat(history.get("purged").asBoolean()).isTrue();
        assertThat(history.get("purgedBy").asString()).isEqualTo("operator");
        assertThat(history.get("records")).isEmpty();
        assertThat(ids(get("recovery", "/api/log/runs/{run}/records", run)))
                .containsExactlyInAnyOrder(
                        kept.recordId(), record(dataset, run, 3, DELETED_AT).recordId());
        JsonNode purges = get("viewer", "/api/log/{dataset}/purges", dataset);
        assertThat(purges).singleElement().satisfies(p -> {
            assertThat(p.get("scope").asString()).isEqualTo("KEY");
            assertThat(p.get("reason").asString()).isEqualTo("court order");
            assertThat(p.get("recordsRemoved").asInt()).isEqualTo(1);
        });
    }

    @Test
    void aPurgedDatasetsPayloadsCanNoLongerBeRead() {
        String dataset = unique("purge-all");
        String run = unique("run");
        publish(List.of(record(dataset, run, 1, DELETED_AT), record(dataset, run, 2, DELETED_AT)));
        await(
                () -> get("recovery", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() == 2);

        as("operator")
                .post()
                .uri("/api/log/{dataset}/purge", dataset)
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"reason\": \"legal hold lifted, erase now\"}")
                .exchange()
                .expectStatus()
                .isOk();

        JsonNode records = get("recovery", "/api/log/runs/{run}/records", run).get("records");
        assertThat(records).hasSize(2).allSatisfy(r -> {
            assertThat(r.get("purged").asBoolean()).isTrue();
            assertThat(r.get("primaryKey").isNull()).isTrue();
            assertThat(r.get("columns").isNull()).isTrue();
        });

        // records deleted after the purge are kept, under a new key
        Instant later = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusSeconds(1);
        String laterRun = unique("run");
        publish(List.of(record(dataset, laterRun, 3, later)));
        JsonNode fresh = await(
                () -> get("recovery", "/api/log/runs/{run}/records", laterRun),
                page -> page.get("records").size() == 1);
        assertThat(fresh.get("records").get(0).get("purged").asBoolean()).isFalse();
        assertThat(fresh.get("records").get(0).get("columns")).hasSize(3);
    }

    @Test
    void anAnonymisationIsStoredAndShownAsOne() {
        String dataset = unique("anonymised");
        String request = unique("request");
        Map<String, Object> key = Map.of("id", 11);
        long written = CutoffTimestamp.toMicros(DELETED_AT) - 60_000_000L;
        // forward deletion's anonymisation: the row was kept, the record holds only the column it cleared
        DeletionRecord anonymisation = new DeletionRecord(
                DeletionRecord.recordIdFor(request, dataset, key),
                dataset,
                key,
                List.of(new ColumnValue("email", "11@example.com", written, null)),
                CutoffTimestamp.fromInstant(DELETED_AT.minusSeconds(30)),
                null,
                request,
                "task-1",
                "batch-1",
                DELETED_AT,
                null,
                true);
        publish(List.of(anonymisation));

        JsonNode byRequest = await(
                () -> get("recovery", "/api/log/runs/{run}/records", request),
                page -> page.get("records").size() == 1);
        JsonNode byKey = get("viewer", "/api/log/{dataset}/keys?key={key}", dataset, "{\"id\":11}");
        JsonNode byWindow = get(
                "viewer",
                "/api/log/{dataset}/records?from={from}&to={to}",
                dataset,
                DELETED_AT.minusSeconds(1),
                DELETED_AT.plusSeconds(1));

        assertThat(byRequest.get("records").get(0).get("anonymised").asBoolean())
                .isTrue();
        assertThat(byRequest.get("records").get(0).get("columns"))
                .singleElement()
                .satisfies(c -> assertThat(c.get("name").asString()).isEqualTo("email"));
        assertThat(byKey.get("records"))
                .singleElement()
                .satisfies(r -> assertThat(r.get("anonymised").asBoolean()).isTrue());
        assertThat(byWindow.get("records"))
                .singleElement()
                .satisfies(r -> assertThat(r.get("anonymised").asBoolean()).isTrue());
    }

    @Test
    void aRecordPublishedBeforeTheFlagExistedIsStoredAsADeletion() {
        String dataset = unique("pre-flag");
        String run = unique("run");
        DeletionRecord record = record(dataset, run, 21, DELETED_AT);
        // as an older deletion service published it: no anonymised field at all
        ObjectNode message = (ObjectNode) json.readTree(json.writeValueAsString(record));
        assertThat(message.remove("anonymised"))
                .as("the field an older publisher did not write")
                .isNotNull();
        publish(Topics.logKey(record), json.writeValueAsString(message));

        JsonNode byRun = await(
                () -> get("viewer", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() == 1);

        assertThat(byRun.get("records").get(0).get("recordId").asString()).isEqualTo(record.recordId());
        assertThat(byRun.get("records").get(0).get("anonymised").isBoolean()).isTrue();
        assertThat(byRun.get("records").get(0).get("anonymised").asBoolean()).isFalse();
    }

    @Test
    void theLagComesBackToZeroOnceEverythingIsStored() {
        String dataset = unique("lag");
        String run = unique("run");
        publish(List.of(record(dataset, run, 1, DELETED_AT)));
        await(
                () -> get("viewer", "/api/log/runs/{run}/records", run),
                page -> page.get("records").size() == 1);

        JsonNode lag = await(
                () -> get("viewer", "/api/ingestion/lag"), l -> l.get("total").asLong() == 0);

        assertThat(lag.get("group").asString()).isEqualTo("deletion-log-service");
        assertThat(lag.get("partitions").size()).isPositive();
    }

    private Set<String> readAll(String firstUri) {
        Set<String> ids = new HashSet<>();
        String cursor = null;
        int pages = 0;
        do {
            String uri = firstUri + (cursor == null ? "" : "&cursor=" + cursor);
            JsonNode page = get("viewer", uri);
            List<String> pageIds = ids(page);
            assertThat(ids).as("no record twice across pages").doesNotContainAnyElementsOf(pageIds);
            ids.addAll(pageIds);
            JsonNode next = page.get("nextCursor");
            cursor = next == null || next.isNull() ? null : next.asString();
            assertThat(++pages).as("pages").isLessThan(20);
        } while (cursor != null);
        return ids;
    }

    private static List<String> ids(JsonNode page) {
        return StreamSupport.stream(page.get("records").spliterator(), false)
                .map(r -> r.get("recordId").asString())
                .toList();
    }
}
