package io.erasure.recovery.reapply;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.backup.format.BackupBucket;
import io.erasure.deletionlog.client.KeyHash;
import io.erasure.deletionlog.client.LogSchema;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.recovery.RecoveryTestSupport;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.stores.StoreAdapterPool;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.JsonNode;

/**
 * A dataset's erasures are logged as deletion-service logs them (two runs with different cut-offs, an older run
 * outside the window, and a record of its copy {@code <dataset>--cache}); reapplications through the API then
 * report (dry-run) or publish the forward-deletion tasks that delete them again at their original cut-offs.
 */
class ReapplicationIT extends RecoveryTestSupport {

    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 7_200_000_000L;
    private static final CutoffTimestamp FIRST_CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);
    private static final CutoffTimestamp SECOND_CUTOFF = new CutoffTimestamp(WRITTEN + 2_000_000);
    private static final CutoffTimestamp OLD_CUTOFF = new CutoffTimestamp(WRITTEN + 500_000);

    @Autowired
    StoreAdapterPool adapters;

    @Autowired
    S3Client s3;

    private DatasetSpec spec;
    private Instant now;

    /**
     * Rows 1-6 written two hours ago; 1 and 2 erased 20 minutes ago at the first cut-off, 3 and 4 ten minutes ago at
     * the second; 6 erased three hours ago (before the tests' window); 5 only in the copy's log.
     */
    @BeforeEach
    void erasedDataset() {
        spec = cassandraTable();
        for (long id = 1; id <= 6; id++) {
            writeRow(id, "name-" + id, WRITTEN);
        }
        now = Instant.now();
        logAndDelete(RunId.of(unique("run")), FIRST_CUTOFF, List.of(1L, 2L), now.minus(20, ChronoUnit.MINUTES));
        logAndDelete(RunId.of(unique("run")), SECOND_CUTOFF, List.of(3L, 4L), now.minus(10, ChronoUnit.MINUTES));
        logAndDelete(RunId.of(unique("run")), OLD_CUTOFF, List.of(6L), now.minus(3, ChronoUnit.HOURS));
        logCopyRecord(5L, now.minus(10, ChronoUnit.MINUTES));
    }

    @Test
    void aDryRunReportsExactlyTheErasedKeysPerCutoffAndPublishesNothing() {
        JsonNode report = reapply("operator", body(window(now.minus(1, ChronoUnit.HOURS), now), true, "restore-dry"));

        assertThat(report.get("status").asString()).isEqualTo("DRY_RUN");
        assertThat(report.get("requestedBy").asString())
                .as("who asked, for the record")
                .isEqualTo("operator");
        assertThat(keysByCutoff(report))
                .containsOnly(
                        Map.entry(FIRST_CUTOFF.micros(), Set.of(1L, 2L)),
                        Map.entry(SECOND_CUTOFF.micros(), Set.of(3L, 4L)));
        assertThat(report.get("keys").asLong()).isEqualTo(4);
        assertThat(report.get("tasks").asLong()).isEqualTo(2);
        String requestId = report.get("requestId").asString();
        assertThat(requestId).startsWith("reapply-");
        assertThat(publishedTasks(requestId, 0, Duration.ofSeconds(6)))
                .as("a dry-run publishes nothing")
                .isEmpty();

        JsonNode stored = get("/api/reapplications/" + report.get("id").asString());
        assertThat(stored.get("status").asString()).isEqualTo("DRY_RUN");
        assertThat(stored.get("groups")).hasSize(2);
        assertThat(stored.get("groups").get(0).get("keys").asLong()).isEqualTo(2);
        assertThat(stored.get("groups").get(0).get("erasedKeys").isNull())
                .as("keys are not kept in the history")
                .isTrue();
    }

    @Test
    void aRequestPublishesTheWindowsErasuresAtTheirOriginalCutoffsARetryTheSameTasksAndARestoreLosesExactlyThem() {
        String body = body(window(now.minus(1, ChronoUnit.HOURS), now), false, "restore-2024-06");

        JsonNode first = reapply("recovery", body);

        assertThat(first.get("status").asString()).isEqualTo("PUBLISHED");
        String requestId = first.get("requestId").asString();
        List<DeletionTask> tasks = publishedTasks(requestId, 2, Duration.ofSeconds(40));
        assertThat(tasks).hasSize(2).allSatisfy(task -> {
            assertThat(task.requestId()).isEqualTo(requestId);
            assertThat(task.dataset())
                    .as("the copy's record is left to deletion's fan-out")
                    .isEqualTo(spec.name());
            assertThat(task.copyOf()).isNull();
        });
        assertThat(tasks.stream().collect(Collectors.toMap(task -> task.cutoff().micros(), ReapplicationIT::ids)))
                .as("each erased key at its record's original cut-off; key 6 was erased before the window")
                .containsOnly(
                        Map.entry(FIRST_CUTOFF.micros(), Set.of(1L, 2L)),
                        Map.entry(SECOND_CUTOFF.micros(), Set.of(3L, 4L)));
        Set<String> taskIds = tasks.stream().map(DeletionTask::taskId).collect(Collectors.toSet());
        assertThat(taskIdsOf(first)).isEqualTo(taskIds);

        JsonNode retry = reapply("recovery", body);

        assertThat(retry.get("requestId").asString()).isEqualTo(requestId);
        assertThat(retry.get("id").asString())
                .as("a new entry in the history")
                .isNotEqualTo(first.get("id").asString());
        List<DeletionTask> again = publishedTasks(requestId, 4, Duration.ofSeconds(40));
        assertThat(again).hasSize(4);
        assertThat(again.stream().map(DeletionTask::taskId).collect(Collectors.toSet()))
                .as("the retry published the same tasks, which deletion applies once")
                .isEqualTo(taskIds);
        assertThat(StreamSupport.stream(get("/api/reapplications?limit=500").spliterator(), false)
                        .map(entry -> entry.get("id").asString()))
                .contains(first.get("id").asString(), retry.get("id").asString());

        // the table is restored from a backup taken before the erasures: the rows come back with their old write
        // times (no tombstones), and person 3 came back and wrote again after being erased
        session.execute("TRUNCATE " + spec.quotedTable());
        for (long id = 1; id <= 6; id++) {
            writeRow(id, "name-" + id, WRITTEN);
        }
        writeRow(3, "came-back", CutoffTimestamp.toMicros(Instant.now()));
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        for (DeletionTask task : tasks) {
            adapter.executeDelete(
                    adapter.planDelete(new DeleteBatch(task.spec(), task.batchId(0), task.cutoff(), task.keys())));
        }

        assertThat(row(1)).isNull();
        assertThat(row(2)).isNull();
        assertThat(row(4)).isNull();
        assertThat(row(3)).as("written after its erasure's cut-off: survives").isNotNull();
        assertThat(row(3).getString("name")).isEqualTo("came-back");
        assertThat(row(5)).as("only its copy's row was erased").isNotNull();
        assertThat(row(6)).as("erased before the asked window").isNotNull();
    }

    @Test
    void anAnonymisationIsReappliedAsOneClearingItsColumnsWhileADeletionStaysADeletion() {
        for (long id = 7; id <= 10; id++) {
            writeRow(id, "name-" + id, "user" + id + "@example.com", WRITTEN);
        }
        Instant from = now.minus(6, ChronoUnit.MINUTES);
        // 7 anonymised (email cleared, row kept); 8 deleted; 9 anonymised, then deleted at a later cut-off: the delete
        // is its latest erasure; 10 anonymised, but its record is gone from the key's history before the reapplication
        logAndAnonymise(
                unique("request"), FIRST_CUTOFF, List.of(7L, 9L, 10L), "email", now.minus(5, ChronoUnit.MINUTES));
        logAndDelete(RunId.of(unique("run")), SECOND_CUTOFF, List.of(8L, 9L), now.minus(4, ChronoUnit.MINUTES));
        session.execute(session.prepare("DELETE FROM " + LogSchema.BY_KEY + " WHERE dataset = ? AND key_hash = ?")
                .bind(spec.name(), KeyHash.of(spec.name(), Map.of("id", 10L))));

        JsonNode dryRun = reapply("operator", body(window(from, now), true, null));

        assertThat(dryRun.get("status").asString()).isEqualTo("DRY_RUN");
        assertThat(effects(dryRun))
                .containsOnly(
                        Map.entry(FIRST_CUTOFF.micros() + ":[email]", Set.of(7L)),
                        Map.entry(SECOND_CUTOFF.micros() + ":[]", Set.of(8L, 9L)));
        assertThat(dryRun.get("keys").asLong()).isEqualTo(3);
        assertThat(dryRun.get("skippedKeys").asLong())
                .as("10 is skipped, never deleted instead")
                .isEqualTo(1);
        assertThat(dryRun.get("skipped")).singleElement().satisfies(skipped -> {
            assertThat(skipped.get("key").get("id").asLong()).isEqualTo(10L);
            assertThat(skipped.get("reason").asString())
                    .contains("no longer in the log")
                    .contains("not deleted instead");
        });

        JsonNode published = reapply("recovery", body(window(from, now), false, "restore-anonymised"));

        String requestId = published.get("requestId").asString();
        List<DeletionTask> tasks = publishedTasks(requestId, 2, Duration.ofSeconds(40));
        assertThat(tasks).hasSize(2);
        DeletionTask anonymising =
                tasks.stream().filter(DeletionTask::anonymising).findFirst().orElseThrow();
        DeletionTask deleting =
                tasks.stream().filter(task -> !task.anonymising()).findFirst().orElseThrow();
        assertThat(anonymising.clearColumns()).as("the record's columns").containsExactly("email");
        assertThat(ids(anonymising)).containsExactly(7L);
        assertThat(anonymising.cutoff()).isEqualTo(FIRST_CUTOFF);
        assertThat(ids(deleting)).containsExactlyInAnyOrder(8L, 9L);
        assertThat(deleting.cutoff()).isEqualTo(SECOND_CUTOFF);
        assertThat(taskIdsOf(published)).isEqualTo(Set.of(anonymising.taskId(), deleting.taskId()));

        JsonNode stored = get("/api/reapplications/" + published.get("id").asString());
        assertThat(stored.get("groups"))
                .extracting(group -> group.get("cutoffMicros").asLong() + ":"
                        + group.get("clearColumns").toString())
                .as("the history keeps each group's cleared columns")
                .containsExactly(FIRST_CUTOFF.micros() + ":[\"email\"]", SECOND_CUTOFF.micros() + ":[]");
        assertThat(stored.get("skippedKeys").asLong()).isEqualTo(1);
        assertThat(stored.get("skippedReasons").properties())
                .singleElement()
                .satisfies(reason -> assertThat(reason.getValue().asLong()).isEqualTo(1));

        // the table is restored from a backup taken before the erasures, then the published tasks run
        session.execute("TRUNCATE " + spec.quotedTable());
        for (long id = 7; id <= 10; id++) {
            writeRow(id, "name-" + id, "user" + id + "@example.com", WRITTEN);
        }
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        for (DeletionTask task : tasks) {
            adapter.executeDelete(adapter.planDelete(
                    new DeleteBatch(task.spec(), task.batchId(0), task.cutoff(), task.keys(), task.clearColumns())));
        }

        assertThat(row(7)).as("anonymised again: the row is kept").isNotNull();
        assertThat(row(7).getString("name")).isEqualTo("name-7");
        assertThat(row(7).isNull("email"))
                .as("its cleared column is cleared again")
                .isTrue();
        assertThat(row(8)).isNull();
        assertThat(row(9)).as("its latest erasure was a delete").isNull();
        assertThat(row(10)).as("skipped: neither anonymised nor deleted").isNotNull();
        assertThat(row(10).getString("email")).isEqualTo("user10@example.com");
    }

    @Test
    void bySnapshotEveryErasureAfterTheRestoredBackupsCutoffIsReapplied() {
        Instant cutoff = now.minus(15, ChronoUnit.MINUTES);
        String snapshot = S3Layout.snapshotName(cutoff);
        new BackupBucket(s3, LocalEngines.s3().bucket())
                .writeManifest(
                        spec.backup(),
                        new BackupManifest(
                                spec.name(),
                                snapshot,
                                BackupFormat.JSONL_GZIP,
                                new BackupSchema(
                                        List.of(new ColumnSchema("id", "bigint"), new ColumnSchema("name", "text")),
                                        KeyColumns.partitionOnly("id"),
                                        "id"),
                                CutoffTimestamp.toMicros(cutoff),
                                List.of()));

        JsonNode report = reapply("recovery", body("\"snapshot\":\"" + snapshot + "\",", true, null));

        assertThat(report.get("snapshot").asString()).isEqualTo(snapshot);
        assertThat(keysByCutoff(report))
                .as("1 and 2 were erased before the backup began: it does not hold them")
                .containsOnly(Map.entry(SECOND_CUTOFF.micros(), Set.of(3L, 4L)));

        String missing = S3Layout.snapshotName(cutoff.minus(1, ChronoUnit.DAYS));
        assertThat(refused(body("\"snapshot\":\"" + missing + "\",", true, null)))
                .contains("snapshot")
                .contains(missing);
    }

    @Test
    void badInputIsRefusedNamingTheFieldAndPublishesNothing() {
        String window = window(now.minus(1, ChronoUnit.HOURS), now);
        assertThat(refused(body(window, false, "bad-1")
                        .replace("\"dataset\":\"" + spec.name() + "\"", "\"dataset\":\"some-other-dataset\"")))
                .contains("spec.name")
                .contains("some-other-dataset");
        assertThat(refused(body(window(now, now.minus(1, ChronoUnit.HOURS)), false, "bad-2")))
                .contains("from must be before to");
        assertThat(refused(body(window(now.minus(40, ChronoUnit.DAYS), now), false, "bad-3")))
                .contains("from")
                .contains("retention");
        assertThat(refused(body(window, false, null))).contains("requestId");
        DatasetSpec otherKeys = spec.toBuilder()
                .keyColumns(KeyColumns.partitionOnly("user_id"))
                .identifierColumn("user_id")
                .build();
        assertThat(conflict(body(window, false, "bad-4")
                        .replace(json.writeValueAsString(spec), json.writeValueAsString(otherKeys))))
                .as("a spec with other keys is not the frozen one")
                .contains("keyColumns: ")
                .contains("user_id")
                .contains("Omit spec");
        as("viewer")
                .post()
                .uri("/api/reapplications")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body(window, false, "bad-5"))
                .exchange()
                .expectStatus()
                .isForbidden();

        assertThat(TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.DELETION_TASKS,
                        value -> value,
                        value -> value.contains("\"" + spec.name() + "\""),
                        0,
                        Duration.ofSeconds(6)))
                .isEmpty();
    }

    /**
     * A PostgreSQL row recovered after its erasure keeps its old {@code updated_at}, so the erasure's delete at its
     * original cut-off would take it again: a reapplication leaves every key recovered after its erasure alone and
     * counts it as skipped, with the reason.
     */
    @Test
    void aKeyRecoveredAfterItsErasureIsNotErasedAgainAndIsCountedAsSkipped() {
        String table = unique("accounts");
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS recovery_it");
        jdbc.execute("CREATE TABLE recovery_it." + table
                + " (id bigint PRIMARY KEY, name text, updated_at timestamptz NOT NULL)");
        DatasetSpec accounts = spec.toBuilder()
                .name(table.replace('_', '-'))
                .storeKind(StoreKind.POSTGRES)
                .connectionRef(POSTGRES)
                .namespace("recovery_it")
                .table(table)
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .build();
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        for (long id = 1; id <= 2; id++) {
            jdbc.update(
                    "INSERT INTO recovery_it." + table + " (id, name, updated_at) VALUES (?, ?, ?)",
                    id,
                    "owner-" + id,
                    updated);
        }
        logAndDelete(
                accounts, RunId.of(unique("run")), FIRST_CUTOFF, List.of(1L, 2L), now.minus(20, ChronoUnit.MINUTES));
        JsonNode recovery = recover("{\"scope\":{\"type\":\"keys\",\"dataset\":\"" + accounts.name()
                + "\",\"keys\":[{\"id\":1}]},\"spec\":" + json.writeValueAsString(accounts)
                + ",\"dryRun\":false,\"reason\":\"deleted by mistake\"}");
        assertThat(recovery.get("restored").asLong()).as(recovery.toString()).isEqualTo(1);

        String body = "{\"dataset\":\"" + accounts.name() + "\",\"spec\":" + json.writeValueAsString(accounts) + ","
                + window(now.minus(1, ChronoUnit.HOURS), Instant.now()) + "\"dryRun\":false,\"requestId\":\""
                + unique("restore") + "\",\"reason\":\"table restored from backup\"}";
        JsonNode report = reapply("recovery", body);

        assertThat(keysByCutoff(report))
                .as("only the key that was not recovered")
                .containsOnly(Map.entry(FIRST_CUTOFF.micros(), Set.of(2L)));
        assertThat(report.get("skippedKeys").asLong()).isEqualTo(1);
        assertThat(report.get("skipped")).singleElement().satisfies(skipped -> {
            assertThat(skipped.get("key").get("id").asLong()).isEqualTo(1L);
            assertThat(skipped.get("reason").asString()).contains("recovered after erasure");
        });
        JsonNode stored = get("/api/reapplications/" + report.get("id").asString());
        assertThat(stored.get("skippedKeys").asLong()).isEqualTo(1);
        assertThat(stored.get("skippedReasons").properties()).singleElement().satisfies(reason -> {
            assertThat(reason.getKey()).contains("recovered after erasure");
            assertThat(reason.getValue().asLong()).isEqualTo(1);
        });

        // the database is restored from a backup taken before the erasure (row 2 is back), then the tasks run
        jdbc.update("INSERT INTO recovery_it." + table + " (id, name, updated_at) VALUES (2, 'owner-2', ?)", updated);
        StoreAdapter adapter = adapters.checkedAdapter(accounts);
        for (DeletionTask task : publishedTasks(report.get("requestId").asString(), 1, Duration.ofSeconds(40))) {
            adapter.executeDelete(
                    adapter.planDelete(new DeleteBatch(task.spec(), task.batchId(0), task.cutoff(), task.keys())));
        }

        assertThat(jdbc.queryForList("SELECT id FROM recovery_it." + table + " ORDER BY id", Long.class))
                .as("the recovered row stays, the other is erased again")
                .containsExactly(1L);
        assertThat(jdbc.queryForObject("SELECT name FROM recovery_it." + table + " WHERE id = 1", String.class))
                .isEqualTo("owner-1");
    }

    @Test
    void anErasureWhoseRunFrozeNoSpecIsSkippedAndReportedWhileTheOthersAreStillReapplied() {
        writeRow(7L, "name-7", WRITTEN);
        logAndDelete(
                spec, RunId.of(unique("run")), SECOND_CUTOFF, List.of(7L), now.minus(5, ChronoUnit.MINUTES), false);

        JsonNode report =
                reapply("operator", body(window(now.minus(1, ChronoUnit.HOURS), now), true, "restore-unfrozen"));

        assertThat(keysByCutoff(report))
                .as("the erasures with a frozen spec are re-applied all the same")
                .containsOnly(
                        Map.entry(FIRST_CUTOFF.micros(), Set.of(1L, 2L)),
                        Map.entry(SECOND_CUTOFF.micros(), Set.of(3L, 4L)));
        assertThat(report.get("skipped")).singleElement().satisfies(skipped -> {
            assertThat(skipped.get("key").get("id").asLong()).isEqualTo(7L);
            assertThat(skipped.get("reason").asString()).contains("froze no spec");
        });
    }

    @Test
    void aReapplicationWhoseSpecNamesAnotherTableOrAddsACopyIsRefusedAndPublishesNothing() {
        DatasetSpec elsewhere = spec.toBuilder().table(unique("someone_elses")).build();
        DatasetSpec withCopy = spec.toBuilder()
                .copies(List.of(new DatasetCopy(
                        "extra",
                        StoreKind.CASSANDRA,
                        CASSANDRA,
                        new CopyTarget.TableMapping("recovery_it", unique("extra"), Map.of("id", "id")))))
                .build();
        String tableRequest = unique("redirected");
        String copyRequest = unique("widened");

        String table = conflict(body(elsewhere, window(now.minus(1, ChronoUnit.HOURS), now), false, tableRequest));
        String copies = conflict(body(withCopy, window(now.minus(1, ChronoUnit.HOURS), now), false, copyRequest));

        assertThat(table)
                .as("names the field, both values and the fix")
                .contains("table: \"" + elsewhere.table() + "\"")
                .contains("(frozen: \"" + spec.table() + "\")")
                .contains("Omit spec");
        assertThat(copies)
                .contains("copies: [")
                .contains("extra")
                .contains("(frozen: [])")
                .contains("Omit spec");
        for (String clientRequestId : List.of(tableRequest, copyRequest)) {
            Map<String, Object> stored = jdbc.queryForMap(
                    "SELECT request_id, status, failure FROM reapplications" + " WHERE client_request_id = ?",
                    clientRequestId);
            assertThat(stored.get("status"))
                    .as("kept in the history as refused")
                    .isEqualTo("FAILED");
            assertThat((String) stored.get("failure")).contains("spec differs");
            assertThat(publishedTasks((String) stored.get("request_id"), 0, Duration.ofSeconds(5)))
                    .as("nothing is published")
                    .isEmpty();
        }
    }

    @Test
    void withoutASpecEachErasureIsReappliedUnderTheSpecItsRunFrozeWithExactlyThatSpecsCopies() {
        // a later run erased key 5 under a revision of the spec with a copy (and another priority)
        DatasetSpec revised = spec.toBuilder()
                .priority(7)
                .copies(List.of(new DatasetCopy(
                        "mirror",
                        StoreKind.CASSANDRA,
                        CASSANDRA,
                        new CopyTarget.TableMapping("recovery_it", unique("mirror"), Map.of("id", "id")))))
                .build();
        logAndDelete(revised, RunId.of(unique("run")), SECOND_CUTOFF, List.of(5L), now.minus(5, ChronoUnit.MINUTES));

        JsonNode report = reapply(
                "recovery",
                "{\"dataset\":\"" + spec.name() + "\","
                        + window(now.minus(1, ChronoUnit.HOURS), Instant.now()) + "\"dryRun\":false,\"requestId\":\""
                        + unique("restore") + "\",\"reason\":\"table restored from backup\"}");

        assertThat(report.get("status").asString()).isEqualTo("PUBLISHED");
        assertThat(report.get("groups"))
                .as("one group per cut-off and frozen spec")
                .hasSize(3);
        List<DeletionTask> tasks = publishedTasks(report.get("requestId").asString(), 3, Duration.ofSeconds(40));
        assertThat(tasks).hasSize(3);
        Map<Set<Long>, DatasetSpec> specByKeys =
                tasks.stream().collect(Collectors.toMap(ReapplicationIT::ids, DeletionTask::spec));
        assertThat(specByKeys)
                .containsOnly(
                        Map.entry(Set.of(1L, 2L), spec),
                        Map.entry(Set.of(3L, 4L), spec),
                        Map.entry(Set.of(5L), revised));
        assertThat(specByKeys.get(Set.of(5L)).copies())
                .extracting(copy -> copy.name())
                .as("the fan-out deletes again exactly the copies that run had")
                .containsExactly("mirror");
        assertThat(specByKeys.get(Set.of(1L, 2L)).copies()).isEmpty();
    }

    // --- fixtures

    /** The detail of a 409 answer to {@code body}. */
    private String conflict(String body) {
        String problem = as("operator")
                .post()
                .uri("/api/reapplications")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange()
                .expectStatus()
                .isEqualTo(409)
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        return json.readTree(problem).get("detail").asString();
    }

    private String body(DatasetSpec sent, String scope, boolean dryRun, String requestId) {
        return "{\"dataset\":\"" + sent.name() + "\",\"spec\":" + json.writeValueAsString(sent) + "," + scope
                + "\"dryRun\":" + dryRun + ",\"requestId\":\"" + requestId
                + "\",\"reason\":\"table restored from backup\"}";
    }

    private String body(String scope, boolean dryRun, String requestId) {
        return "{\"dataset\":\"" + spec.name() + "\",\"spec\":" + json.writeValueAsString(spec) + "," + scope
                + "\"dryRun\":" + dryRun + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"")
                + ",\"reason\":\"table restored from backup\"}";
    }

    private static String window(Instant from, Instant to) {
        return "\"from\":\"" + from + "\",\"to\":\"" + to + "\",";
    }

    private JsonNode reapply(String user, String body) {
        return json.readTree(as(user).post()
                .uri("/api/reapplications")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody());
    }

    private String refused(String body) {
        return as("operator")
                .post()
                .uri("/api/reapplications")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    private List<DeletionTask> publishedTasks(String requestId, int atLeast, Duration timeout) {
        return TopicRecords.read(
                        LocalEngines.kafka().bootstrapServers(),
                        Topics.DELETION_TASKS,
                        value -> value,
                        value -> value.contains("\"" + requestId + "\""),
                        atLeast,
                        timeout)
                .stream()
                .map(value -> json.readValue(value, DeletionTask.class))
                .toList();
    }

    private static Map<Long, Set<Long>> keysByCutoff(JsonNode report) {
        Map<Long, Set<Long>> byCutoff = new HashMap<>();
        for (JsonNode group : report.get("groups")) {
            Set<Long> ids = new HashSet<>();
            group.get("erasedKeys").forEach(key -> ids.add(key.get("id").asLong()));
            assertThat(group.get("keys").asLong()).isEqualTo(ids.size());
            byCutoff.put(group.get("cutoffMicros").asLong(), ids);
        }
        return byCutoff;
    }

    private static Set<String> taskIdsOf(JsonNode report) {
        Set<String> ids = new HashSet<>();
        report.get("groups").forEach(group -> group.get("taskIds").forEach(id -> ids.add(id.asString())));
        return ids;
    }

    private static Set<Long> ids(DeletionTask task) {
        return task.keys().stream()
                .map(key -> ((Number) key.get("id")).longValue())
                .collect(Collectors.toSet());
    }

    private DatasetSpec cassandraTable() {
        String table = unique("reapplied");
        session.execute("CREATE KEYSPACE IF NOT EXISTS recovery_it WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': 1}");
        session.execute("CREATE TABLE recovery_it." + table + " (id bigint PRIMARY KEY, name text, email text)");
        String name = table.replace('_', '-');
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef(CASSANDRA)
                .namespace("recovery_it")
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("erasure-tests")
                .build();
    }

    private void writeRow(long id, String name, String email, long writeTimeMicros) {
        session.execute(session.prepare("INSERT INTO " + spec.quotedTable() + " (id, name, email) VALUES (?, ?, ?)"
                        + " USING TIMESTAMP ?")
                .bind(id, name, email, writeTimeMicros));
    }

    private void writeRow(long id, String name, long writeTimeMicros) {
        session.execute(
                session.prepare("INSERT INTO " + spec.quotedTable() + " (id, name) VALUES (?, ?) USING TIMESTAMP ?")
                        .bind(id, name, writeTimeMicros));
    }

    private Row row(long id) {
        return session.execute(session.prepare("SELECT name, email FROM " + spec.quotedTable() + " WHERE id = ?")
                        .bind(id))
                .one();
    }

    private void logAndDelete(RunId run, CutoffTimestamp cutoff, List<Long> ids, Instant deletedAt) {
        logAndDelete(spec, run, cutoff, ids, deletedAt);
    }

    /** What the deletion service does: read the live rows, log them, then delete at the cut-off. */
    private void logAndDelete(DatasetSpec spec, RunId run, CutoffTimestamp cutoff, List<Long> ids, Instant deletedAt) {
        logAndDelete(spec, run, cutoff, ids, deletedAt, true);
    }

    /** As above; {@code frozen} false logs the records without their spec, as before frozen specs were kept. */
    private void logAndDelete(
            DatasetSpec spec, RunId run, CutoffTimestamp cutoff, List<Long> ids, Instant deletedAt, boolean frozen) {
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        List<Map<String, Object>> keys =
                ids.stream().map(id -> Map.<String, Object>of("id", id)).toList();
        List<LiveRow> rows = adapter.readRows(spec, keys);
        assertThat(rows).hasSize(ids.size());
        DeletionTask task = DeletionTask.forRun(run, spec, keys, cutoff);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, task.batchId(0), row.key(), row.columns(), deletedAt))
                .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                .toList();
        if (frozen) {
            logUnder(task, records);
        } else {
            log.writer().write(records);
        }
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, task.batchId(0), cutoff, keys)));
        assertThat(adapter.checkLiveState(spec, keys)).noneMatch(state -> state.present());
    }

    /**
     * What forward deletion's anonymisation does: log the live values of {@code column}, then clear it at the cut-off.
     */
    private void logAndAnonymise(
            String requestId, CutoffTimestamp cutoff, List<Long> ids, String column, Instant deletedAt) {
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        List<Map<String, Object>> keys =
                ids.stream().map(id -> Map.<String, Object>of("id", id)).toList();
        DeletionTask task = DeletionTask.forward(requestId, spec, keys, cutoff, spec.priority(), List.of(column));
        logUnder(
                task,
                adapter.readRows(spec, keys).stream()
                        .map(row -> DeletionRecord.of(
                                task,
                                task.batchId(0),
                                row.key(),
                                row.columns().stream()
                                        .filter(value -> value.name().equals(column))
                                        .toList(),
                                deletedAt))
                        .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                        .toList());
        adapter.executeDelete(
                adapter.planDelete(new DeleteBatch(spec, task.batchId(0), cutoff, keys, List.of(column))));
        assertThat(adapter.checkLiveState(spec, keys)).allMatch(state -> state.present());
    }

    /** The keys per "cut-off:[cleared columns]" of a reapplication's answer. */
    private static Map<String, Set<Long>> effects(JsonNode report) {
        Map<String, Set<Long>> byEffect = new HashMap<>();
        for (JsonNode group : report.get("groups")) {
            Set<Long> ids = new HashSet<>();
            group.get("erasedKeys").forEach(key -> ids.add(key.get("id").asLong()));
            List<String> columns = new ArrayList<>();
            group.get("clearColumns").forEach(column -> columns.add(column.asString()));
            byEffect.put(group.get("cutoffMicros").asLong() + ":" + columns, ids);
        }
        return byEffect;
    }

    /** A record of the dataset's copy {@code <dataset>--cache}, as deletion's fan-out logs it. */
    private void logCopyRecord(long id, Instant deletedAt) {
        Map<String, Object> key = Map.of("id", id);
        LiveRow row = adapters.checkedAdapter(spec).readRows(spec, List.of(key)).get(0);
        String copy = spec.name() + "--cache";
        RunId run = RunId.of(unique("run"));
        log.writer()
                .write(List.of(new DeletionRecord(
                        DeletionRecord.recordIdFor(run.value(), copy, key),
                        copy,
                        key,
                        row.columns(),
                        SECOND_CUTOFF,
                        run,
                        null,
                        "task-copy",
                        "task-copy-b0",
                        deletedAt,
                        null)));
    }
}
