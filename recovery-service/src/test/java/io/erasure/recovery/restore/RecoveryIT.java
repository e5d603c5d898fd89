package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
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
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Rows are read through the adapters, logged as deletion records (as deletion-log-service stores them),
 * deleted at the cut-off, then recovered through the API: dry-runs change nothing and report conflicts;
 * restores bring rows back identical and never overwrite a row written after the delete.
 */
class RecoveryIT extends RecoveryTestSupport {

    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);

    @Autowired
    StoreAdapterPool adapters;

    @Test
    void byKeysADryRunChangesNothingThenTheRestoreBringsRowsBackExactlyAndKeepsNewerOnes() {
        DatasetSpec spec = cassandraTable();
        writeCassandra(spec, 1, "alice", "a@example.com", 3600);
        writeCassandra(spec, 2, "bob", "b@example.com", null);
        writeCassandra(spec, 3, "carol", "c@example.com", null);
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, List.of(1L, 2L, 3L), Instant.now());
        // written by the application after the delete: must survive any recovery
        session.execute(
                "INSERT INTO " + spec.quotedTable() + " (id, name, email) VALUES (3, 'carol-new', 'c2@example.com')");

        String body = byKeys(spec, "[{\"id\":1},{\"id\":2},{\"id\":3},{\"id\":99}]");
        JsonNode dryRun = recover(body.replace("\"dryRun\":false", "\"dryRun\":true"));

        assertThat(dryRun.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(outcomes(dryRun))
                .containsEntry(1L, "RESTORABLE")
                .containsEntry(2L, "RESTORABLE")
                .containsEntry(3L, "CONFLICT")
                .containsEntry(99L, "NOT_IN_LOG");
        assertThat(dryRun.get("requestedBy").asString()).isEqualTo("recovery");
        assertThat(cassandraRow(spec, 1)).as("a dry-run writes nothing").isNull();
        assertThat(cassandraRow(spec, 2)).isNull();

        JsonNode restore = recover(body);

        assertThat(outcomes(restore))
                .containsEntry(1L, "RESTORED")
                .containsEntry(2L, "RESTORED")
                .containsEntry(3L, "NEWER_DATA_KEPT")
                .containsEntry(99L, "NOT_IN_LOG");
        assertThat(restore.get("restored").asLong()).isEqualTo(2);
        assertThat(restore.get("conflicts").asLong()).isEqualTo(1);
        assertThat(restore.get("path").asString())
                .as("a small recovery restores online")
                .isEqualTo("ONLINE");
        assertThat(restore.get("recordsDone").asLong())
                .isEqualTo(restore.get("recordsTotal").asLong())
                .isEqualTo(4);
        Row alice = cassandraRow(spec, 1);
        assertThat(alice.getString("name")).isEqualTo("alice");
        assertThat(alice.getString("email")).isEqualTo("a@example.com");
        assertThat(alice.getLong("wt")).as("restored at the cut-off + 1 µs").isEqualTo(CUTOFF.restoreWriteTimeMicros());
        assertThat(alice.getInt("ttl")).as("the remaining TTL").isBetween(3500, 3600);
        Row bob = cassandraRow(spec, 2);
        assertThat(bob.getString("name")).isEqualTo("bob");
        assertThat(bob.isNull("ttl")).as("no TTL before, none after").isTrue();
        assertThat(cassandraRow(spec, 3).getString("name"))
                .as("the newer row is kept")
                .isEqualTo("carol-new");
    }

    @Test
    void aRecordWhoseTtlRanOutIsReportedExpiredAndNotWritten() {
        DatasetSpec spec = cassandraTable();
        writeCassandra(spec, 1, "short-lived", "s@example.com", 60);
        RunId run = RunId.of(unique("run"));
        // deleted two minutes ago with a minute left: by now it would have expired on its own
        logAndDelete(spec, run, List.of(1L), Instant.now().minus(2, ChronoUnit.MINUTES));

        String body = "{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":%s,\"reason\":\"test\"}";
        JsonNode dryRun = recover(body.formatted("true"));
        JsonNode restore = recover(body.formatted("false"));

        assertThat(outcomes(dryRun)).containsExactly(Map.entry(1L, "EXPIRED"));
        assertThat(outcomes(restore)).containsExactly(Map.entry(1L, "EXPIRED"));
        assertThat(restore.get("expired").asLong()).isEqualTo(1);
        assertThat(cassandraRow(spec, 1)).isNull();
    }

    @Test
    void byTimeWindowOnlyTheWindowsDeletionsComeBack() {
        DatasetSpec spec = cassandraTable();
        for (long id = 1; id <= 3; id++) {
            writeCassandra(spec, id, "name-" + id, id + "@example.com", null);
        }
        Instant windowStart = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(30, ChronoUnit.MINUTES);
        logAndDelete(spec, RunId.of(unique("run")), List.of(1L, 2L), windowStart.plusSeconds(60));
        logAndDelete(spec, RunId.of(unique("run")), List.of(3L), windowStart.plus(20, ChronoUnit.MINUTES));

        JsonNode restore = recover("{\"scope\":{\"type\":\"timeWindow\",\"dataset\":\"" + spec.name() + "\",\"from\":\""
                + windowStart + "\",\"to\":\"" + windowStart.plus(10, ChronoUnit.MINUTES) + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":false,\"reason\":\"test\"}");

        assertThat(outcomes(restore)).containsOnly(Map.entry(1L, "RESTORED"), Map.entry(2L, "RESTORED"));
        assertThat(cassandraRow(spec, 1).getString("name")).isEqualTo("name-1");
        assertThat(cassandraRow(spec, 2).getString("name")).isEqualTo("name-2");
        assertThat(cassandraRow(spec, 3)).as("deleted outside the window").isNull();
    }

    @Test
    void byRunPostgresRowsComeBackIdenticalAndAReinsertedRowIsNotOverwritten() {
        String table = unique("accounts");
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS recovery_it");
        jdbc.execute("CREATE TABLE recovery_it." + table + " (id bigint PRIMARY KEY, name text, balance numeric(12,2),"
                + " tags text[], updated_at timestamptz NOT NULL)");
        DatasetSpec spec =
                spec(StoreKind.POSTGRES, POSTGRES, "recovery_it", table, ConditionalColumn.timestamp("updated_at"));
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        for (long id = 1; id <= 3; id++) {
            jdbc.update(
                    "INSERT INTO recovery_it." + table
                            + " (id, name, balance, tags, updated_at) VALUES (?, ?, ?::numeric," + " ?::text[], ?)",
                    id,
                    "owner-" + id,
                    id + "0.25",
                    "{a,b" + id + "}",
                    updated);
        }
        List<Map<String, Object>> before =
                jdbc.queryForList("SELECT id, name, balance, tags::text AS tags, updated_at FROM" + " recovery_it."
                        + table + " ORDER BY id");
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, List.of(1L, 2L, 3L), Instant.now());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_it." + table, Long.class))
                .isZero();
        jdbc.update("INSERT INTO recovery_it." + table
                + " (id, name, balance, tags, updated_at) VALUES (2, 'new-owner', 1," + " '{}', now())");

        String body = "{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":%s,\"reason\":\"deleted by mistake\"}";
        JsonNode dryRun = recover(body.formatted("true"));
        assertThat(outcomes(dryRun))
                .containsOnly(Map.entry(1L, "RESTORABLE"), Map.entry(2L, "CONFLICT"), Map.entry(3L, "RESTORABLE"));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_it." + table, Long.class))
                .isEqualTo(1);

        JsonNode restore = recover(body.formatted("false"));

        assertThat(outcomes(restore))
                .containsOnly(Map.entry(1L, "RESTORED"), Map.entry(2L, "NEWER_DATA_KEPT"), Map.entry(3L, "RESTORED"));
        List<Map<String, Object>> after =
                jdbc.queryForList("SELECT id, name, balance, tags::text AS tags, updated_at FROM" + " recovery_it."
                        + table + " WHERE id <> 2 ORDER BY id");
        assertThat(after).containsExactly(before.get(0), before.get(2));
        assertThat(jdbc.queryForObject("SELECT name FROM recovery_it." + table + " WHERE id = 2", String.class))
                .isEqualTo("new-owner");
        assertThat(StreamSupport.stream(get("/api/recoveries?limit=500").spliterator(), false)
                        .map(r -> r.get("id").asString()))
                .contains(restore.get("id").asString(), dryRun.get("id").asString());
    }

    @Test
    void aCassandraAnonymisationsDryRunPredictsRestoreWhileItsColumnIsNullAndConflictOnceItIsWrittenAgain() {
        DatasetSpec spec = cassandraTable();
        writeCassandra(spec, 1, "alice", "a@example.com", null);
        writeCassandra(spec, 2, "bob", "b@example.com", null);
        String request = unique("request");
        logAndAnonymise(spec, request, List.of(1L, 2L), "email");
        String body = byKeys(spec, "[{\"id\":1},{\"id\":2}]");

        JsonNode before = recover(body.replace("\"dryRun\":false", "\"dryRun\":true"));

        assertThat(before.get("status").asString()).as(before.toString()).isEqualTo("COMPLETED");
        assertThat(outcomes(before))
                .as("the live rows were kept on purpose: no conflict in themselves")
                .containsOnly(Map.entry(1L, "RESTORABLE"), Map.entry(2L, "RESTORABLE"));

        // the application sets bob's email again after the anonymisation
        session.execute("UPDATE " + spec.quotedTable() + " SET email = 'b2@example.com' WHERE id = 2");
        JsonNode dryRun = recover(body.replace("\"dryRun\":false", "\"dryRun\":true"));

        assertThat(outcomes(dryRun)).containsOnly(Map.entry(1L, "RESTORABLE"), Map.entry(2L, "CONFLICT"));
        assertThat(detail(dryRun, 2L)).contains("email");
        assertThat(cassandraRow(spec, 1).isNull("email"))
                .as("a dry-run writes nothing")
                .isTrue();

        JsonNode restore = recover(body);

        assertThat(outcomes(restore))
                .as("the restore does what the dry-run said")
                .containsOnly(Map.entry(1L, "RESTORED"), Map.entry(2L, "NEWER_DATA_KEPT"));
        assertThat(cassandraRow(spec, 1).getString("email")).isEqualTo("a@example.com");
        assertThat(cassandraRow(spec, 2).getString("email")).isEqualTo("b2@example.com");
    }

    @Test
    void aPostgresAnonymisationsDryRunPredictsRestoreConflictOrFailedAsTheAdapterRestores() {
        String table = unique("members");
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS recovery_it");
        jdbc.execute("CREATE TABLE recovery_it." + table + " (id bigint PRIMARY KEY, name text, email text,"
                + " updated_at timestamptz NOT NULL)");
        DatasetSpec spec =
                spec(StoreKind.POSTGRES, POSTGRES, "recovery_it", table, ConditionalColumn.timestamp("updated_at"));
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        for (long id = 1; id <= 4; id++) {
            jdbc.update(
                    "INSERT INTO recovery_it." + table + " (id, name, email, updated_at) VALUES (?, ?, ?, ?)",
                    id,
                    "member-" + id,
                    "m" + id + "@example.com",
                    updated);
        }
        logAndAnonymise(spec, unique("request"), List.of(1L, 2L, 3L, 4L), "email");
        assertThat(jdbc.queryForList("SELECT email FROM recovery_it." + table, String.class))
                .containsOnlyNulls()
                .hasSize(4);
        // 2: its email set again; 3: deleted after the anonymisation; 4: another column written after the cut-off
        jdbc.update("UPDATE recovery_it." + table + " SET email = 'new@example.com', updated_at = now() WHERE id = 2");
        jdbc.update("DELETE FROM recovery_it." + table + " WHERE id = 3");
        jdbc.update("UPDATE recovery_it." + table + " SET name = 'renamed', updated_at = now() WHERE id = 4");
        String body = byKeys(spec, "[{\"id\":1},{\"id\":2},{\"id\":3},{\"id\":4}]");

        JsonNode dryRun = recover(body.replace("\"dryRun\":false", "\"dryRun\":true"));

        assertThat(dryRun.get("status").asString()).as(dryRun.toString()).isEqualTo("COMPLETED");
        assertThat(outcomes(dryRun))
                .containsOnly(
                        Map.entry(1L, "RESTORABLE"),
                        Map.entry(2L, "CONFLICT"),
                        Map.entry(3L, "FAILED"),
                        Map.entry(4L, "CONFLICT"));
        assertThat(detail(dryRun, 3L)).contains("deleted after it was anonymised");
        assertThat(detail(dryRun, 4L)).contains("written after the cut-off");
        assertThat(jdbc.queryForObject("SELECT email FROM recovery_it." + table + " WHERE id = 1", String.class))
                .as("a dry-run writes nothing")
                .isNull();

        JsonNode restore = recover(body);

        assertThat(outcomes(restore))
                .as("the restore does what the dry-run said")
                .containsOnly(
                        Map.entry(1L, "RESTORED"),
                        Map.entry(2L, "NEWER_DATA_KEPT"),
                        Map.entry(3L, "FAILED"),
                        Map.entry(4L, "NEWER_DATA_KEPT"));
        assertThat(jdbc.queryForList(
                        "SELECT id || ':' || coalesce(email, '-') FROM recovery_it." + table + " ORDER BY id",
                        String.class))
                .containsExactly("1:m1@example.com", "2:new@example.com", "4:-");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_it." + table + " WHERE id = 3", Long.class))
                .as("no row is brought back for its columns")
                .isZero();
    }

    @Test
    void aSpecForAnotherDatasetIsRefusedWithTheReason() {
        DatasetSpec spec = cassandraTable();
        String body =
                "{\"scope\":{\"type\":\"keys\",\"dataset\":\"some-other-dataset\",\"keys\":[{\"id\":1}]},\"spec\":"
                        + json.writeValueAsString(spec) + ",\"dryRun\":true,\"reason\":\"test\"}";

        String problem = as("recovery")
                .post()
                .uri("/api/recoveries")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();

        assertThat(problem).contains("spec.name").contains("some-other-dataset");
    }

    @Test
    void aRecoveryWhoseSpecNamesAnotherTableOrAddsACopyIsRefusedAndNothingIsWrittenThere() {
        DatasetSpec spec = cassandraTable();
        DatasetSpec other = cassandraTable(); // another team's table, the same columns
        writeCassandra(spec, 1, "alice", "a@example.com", null);
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, List.of(1L), Instant.now());
        DatasetSpec elsewhere = spec.toBuilder().table(other.table()).build();
        DatasetSpec withCopy = spec.toBuilder()
                .copies(List.of(new DatasetCopy(
                        "mirror",
                        StoreKind.CASSANDRA,
                        CASSANDRA,
                        new CopyTarget.TableMapping("recovery_it", other.table(), Map.of("id", "id", "name", "name")))))
                .build();
        String reason = unique("redirected");

        String table = conflict("{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"spec\":"
                + json.writeValueAsString(elsewhere) + ",\"dryRun\":false,\"reason\":\"" + reason + "\"}");
        String copies = conflict("{\"scope\":{\"type\":\"keys\",\"dataset\":\"" + spec.name()
                + "\",\"keys\":[{\"id\":1}]}," + "\"spec\":" + json.writeValueAsString(withCopy)
                + ",\"dryRun\":false,\"reason\":\"" + reason + "\"}");

        assertThat(table)
                .as("names the field, both values and the fix")
                .contains("table: \"" + other.table() + "\"")
                .contains("(frozen: \"" + spec.table() + "\")")
                .contains("Omit spec")
                .contains(run.value());
        assertThat(copies)
                .contains("copies: [")
                .contains("mirror")
                .contains("(frozen: [])")
                .contains("Omit spec");
        assertThat(cassandraRow(other, 1))
                .as("nothing is written to the table the spec named")
                .isNull();
        assertThat(cassandraRow(spec, 1)).as("nor anywhere else").isNull();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_requests WHERE reason = ?", Long.class, reason))
                .as("a refused request is not stored")
                .isZero();
    }

    @Test
    void aRecoveryWithoutSpecRestoresExactlyTheDeletedRowsIntoTheFrozenTable() {
        DatasetSpec spec = cassandraTable();
        DatasetSpec other = cassandraTable();
        writeCassandra(spec, 1, "alice", "a@example.com", 3600);
        writeCassandra(spec, 2, "bob", "b@example.com", null);
        writeCassandra(spec, 3, "carol", "c@example.com", null);
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, List.of(1L, 2L), Instant.now());

        JsonNode restore = recover("{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"dryRun\":false,"
                + "\"reason\":\"deleted by mistake\"}");

        assertThat(restore.get("status").asString()).as(restore.toString()).isEqualTo("COMPLETED");
        assertThat(restore.get("dataset").asString())
                .as("the run's dataset, from its frozen spec")
                .isEqualTo(spec.name());
        assertThat(restore.get("restored").asLong()).isEqualTo(2);
        Row alice = cassandraRow(spec, 1);
        assertThat(alice.getString("name")).isEqualTo("alice");
        assertThat(alice.getString("email")).isEqualTo("a@example.com");
        assertThat(alice.getInt("ttl")).isBetween(1, 3600);
        assertThat(cassandraRow(spec, 2).getString("email")).isEqualTo("b@example.com");
        assertThat(cassandraRow(spec, 3).getString("name"))
                .as("never deleted, untouched")
                .isEqualTo("carol");
        assertThat(session.execute("SELECT count(*) FROM " + spec.quotedTable())
                        .one()
                        .getLong(0))
                .isEqualTo(3);
        assertThat(session.execute("SELECT count(*) FROM " + other.quotedTable())
                        .one()
                        .getLong(0))
                .isZero();
    }

    @Test
    void recordsOfTwoRunsUnderTwoSpecRevisionsRestoreEachUnderItsOwn() {
        DatasetSpec first = cassandraTable();
        DatasetSpec moved = cassandraTable();
        // the same dataset, registered again with its rows in another table: the second run froze that revision
        DatasetSpec second = first.toBuilder().table(moved.table()).build();
        writeCassandra(first, 1, "alice", "a@example.com", null);
        writeCassandra(first, 2, "bob", "b@example.com", null);
        writeCassandra(second, 3, "carol", "c@example.com", null);
        writeCassandra(second, 4, "dave", "d@example.com", null);
        Instant windowStart = Instant.now().minus(1, ChronoUnit.HOURS);
        logAndDelete(first, RunId.of(unique("run")), List.of(1L, 2L), windowStart.plusSeconds(60));
        logAndDelete(second, RunId.of(unique("run")), List.of(3L, 4L), windowStart.plusSeconds(120));

        JsonNode restore = recover("{\"scope\":{\"type\":\"timeWindow\",\"dataset\":\"" + first.name()
                + "\",\"from\":\""
                + windowStart + "\",\"to\":\"" + windowStart.plus(10, ChronoUnit.MINUTES) + "\"},\"dryRun\":false,"
                + "\"reason\":\"both runs were wrong\"}");

        assertThat(restore.get("status").asString()).as(restore.toString()).isEqualTo("COMPLETED");
        assertThat(restore.get("restored").asLong()).isEqualTo(4);
        assertThat(cassandraRow(first, 1).getString("name")).isEqualTo("alice");
        assertThat(cassandraRow(first, 2).getString("name")).isEqualTo("bob");
        assertThat(cassandraRow(second, 3).getString("name")).isEqualTo("carol");
        assertThat(cassandraRow(second, 4).getString("name")).isEqualTo("dave");
        assertThat(cassandraRow(first, 3))
                .as("each run's rows go back where that run deleted them")
                .isNull();
        assertThat(cassandraRow(second, 1)).isNull();

        String sent =
                conflict("{\"scope\":{\"type\":\"keys\",\"dataset\":\"" + first.name() + "\",\"keys\":[{\"id\":1}]},"
                        + "\"spec\":" + json.writeValueAsString(first) + ",\"dryRun\":true,\"reason\":\"test\"}");
        assertThat(sent)
                .as("one spec cannot be both revisions")
                .contains("table: \"" + first.table() + "\"")
                .contains("(frozen: \"" + moved.table() + "\")");
    }

    @Test
    void aRunThatDeletedNothingRestoresNothingAndCompletes() {
        // a run that failed before it deleted (a chaos trial: S3 away during validation) is undone by doing nothing
        JsonNode byRun = recover("{\"scope\":{\"type\":\"run\",\"runId\":\"" + RunId.of(unique("run"))
                + "\"},\"dryRun\":false,\"reason\":\"undo a failed run\"}");

        assertThat(byRun.get("status").asString()).as(byRun.toString()).isEqualTo("COMPLETED");
        assertThat(byRun.get("recordsTotal").asLong()).isZero();
        assertThat(byRun.get("restored").asLong()).isZero();
    }

    @Test
    void aRecordWhoseRunFrozeNoSpecFailsTheRecoveryAndIsNotRestored() {
        DatasetSpec spec = cassandraTable();
        writeCassandra(spec, 1, "alice", "a@example.com", null);
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, List.of(1L), Instant.now(), false); // logged before frozen specs were kept

        JsonNode byRun = recover("{\"scope\":{\"type\":\"run\",\"runId\":\"" + run + "\"},\"dryRun\":false,"
                + "\"reason\":\"older log\"}");

        assertThat(byRun.get("status").asString()).isEqualTo("FAILED");
        assertThat(byRun.get("failure").asString())
                .contains("no frozen spec")
                .contains(run.value())
                .contains("guessed");
        assertThat(cassandraRow(spec, 1))
                .as("not restored under a guessed spec")
                .isNull();
    }

    @Test
    void aRecoveryRequestIsBoundedAndReadStrictlyAndNoRefusedOneIsStored() throws Exception {
        DatasetSpec spec = cassandraTable();
        Integer before = jdbc.queryForObject("SELECT count(*) FROM recovery_requests", Integer.class);
        String keys = IntStream.range(0, 1_001)
                .mapToObj(i -> "{\"id\":" + i + "}")
                .collect(Collectors.joining(",", "[", "]"));

        assertThat(refusal(byKeys(spec, keys))).startsWith("scope.keys has 1001 elements; at most 1000 are allowed");
        assertThat(refusal(byKeys(spec, "[{\"id\":1}]").replace("\"dryRun\":false", "\"dryrun\":false")))
                .startsWith("field 'dryrun' is not known: CreateRecovery has dryRun, reason, scope, spec");
        assertThat(refusal("{\"scope\":{\"type\":\"timeWindow\",\"dataset\":\"" + spec.name()
                        + "\",\"from\":\"yesterday\"," + "\"to\":\"2026-01-01T00:00:00Z\"},\"spec\":"
                        + json.writeValueAsString(spec) + ",\"reason\":\"test\"}"))
                .isEqualTo(
                        "field 'scope.from' must be an ISO-8601 instant such as 2026-01-31T00:00:00Z; got 'yesterday'");

        // 1.5 MB sent chunked (no Content-Length): counted as it is read, refused once past the 1MB limit
        byte[] large = byKeys(spec, "[{\"id\":1}]")
                .replace("\"reason\":\"", "\"reason\":\"" + "x".repeat(1_500_000))
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> tooLarge = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/recoveries"))
                                .header("Content-Type", "application/json")
                                .header("X-Requested-By", "tests")
                                .header(
                                        "Authorization",
                                        "Basic "
                                                + Base64.getEncoder()
                                                        .encodeToString(
                                                                "recovery:recovery".getBytes(StandardCharsets.UTF_8)))
                                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(large)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(json.readTree(tooLarge.body()).path("detail").asString()).contains("erasure.http.max-request-body");

        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_requests", Integer.class))
                .isEqualTo(before);
    }

    private String refusal(String body) {
        String problem = as("recovery")
                .post()
                .uri("/api/recoveries")
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(problem).hasSizeLessThan(1_000);
        return json.readTree(problem).path("detail").asString();
    }

    // --- fixtures

    /** The detail of a 409 answer to {@code body}. */
    private String conflict(String body) {
        String problem = as("recovery")
                .post()
                .uri("/api/recoveries")
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

    private DatasetSpec cassandraTable() {
        String table = unique("profiles");
        session.execute("CREATE KEYSPACE IF NOT EXISTS recovery_it WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': 1}");
        session.execute("CREATE TABLE recovery_it." + table + " (id bigint PRIMARY KEY, name text, email text)");
        return spec(StoreKind.CASSANDRA, CASSANDRA, "recovery_it", table, ConditionalColumn.none());
    }

    private static DatasetSpec spec(
            StoreKind kind, String connection, String namespace, String table, ConditionalColumn conditional) {
        return DatasetSpec.builder()
                .name(table.replace('_', '-'))
                .storeKind(kind)
                .connectionRef(connection)
                .namespace(namespace)
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(conditional)
                .backup(new BackupLocation("backups/recovery-it/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("erasure-tests")
                .build();
    }

    private void writeCassandra(DatasetSpec spec, long id, String name, String email, Integer ttl) {
        session.execute(session.prepare("INSERT INTO " + spec.quotedTable() + " (id, name, email) VALUES (?, ?, ?)"
                        + " USING TIMESTAMP ? AND TTL ?")
                .bind(id, name, email, WRITTEN, ttl == null ? 0 : ttl));
    }

    private Row cassandraRow(DatasetSpec spec, long id) {
        return session.execute(session.prepare("SELECT name, email, WRITETIME(name) AS wt, TTL(email) AS ttl FROM "
                                + spec.quotedTable() + " WHERE id = ?")
                        .bind(id))
                .one();
    }

    private void logAndDelete(DatasetSpec spec, RunId run, List<Long> ids, Instant deletedAt) {
        logAndDelete(spec, run, ids, deletedAt, true);
    }

    /**
     * What the deletion service does: read the live rows, log them (with the spec frozen, unless {@code frozen} is
     * false: a log from before frozen specs), then delete at the cut-off.
     */
    private void logAndDelete(DatasetSpec spec, RunId run, List<Long> ids, Instant deletedAt, boolean frozen) {
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        List<Map<String, Object>> keys =
                ids.stream().map(id -> Map.<String, Object>of("id", id)).toList();
        List<LiveRow> rows = adapter.readRows(spec, keys);
        assertThat(rows).hasSize(ids.size());
        DeletionTask task = DeletionTask.forRun(run, spec, keys, CUTOFF);
        List<DeletionRecord> records = rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), deletedAt))
                // through JSON, as the records travel on the topic
                .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                .toList();
        if (frozen) {
            logUnder(task, records);
            logUnder(task, records); // a re-delivery is stored once
        } else {
            log.writer().write(records);
        }
        adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-1", CUTOFF, keys)));
        assertThat(adapter.checkLiveState(spec, keys)).noneMatch(state -> state.present());
    }

    /**
     * What forward deletion's anonymisation does: log the live values of {@code column}, then clear it at the cut-off.
     */
    private void logAndAnonymise(DatasetSpec spec, String requestId, List<Long> ids, String column) {
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        List<Map<String, Object>> keys =
                ids.stream().map(id -> Map.<String, Object>of("id", id)).toList();
        DeletionTask task = DeletionTask.forward(requestId, spec, keys, CUTOFF, spec.priority(), List.of(column));
        List<DeletionRecord> records = adapter.readRows(spec, keys).stream()
                .map(row -> DeletionRecord.of(
                        task,
                        task.batchId(0),
                        row.key(),
                        row.columns().stream()
                                .filter(value -> value.name().equals(column))
                                .toList(),
                        Instant.now()))
                .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                .toList();
        assertThat(records).hasSize(ids.size()).allMatch(DeletionRecord::anonymised);
        logUnder(task, records);
        adapter.executeDelete(
                adapter.planDelete(new DeleteBatch(spec, task.batchId(0), CUTOFF, keys, List.of(column))));
        assertThat(adapter.readRows(spec, keys))
                .as("rows kept, the column cleared")
                .hasSize(ids.size())
                .allSatisfy(row -> assertThat(row.columns())
                        .filteredOn(value -> value.name().equals(column))
                        .singleElement()
                        .satisfies(value -> assertThat(value.value()).isNull()));
    }

    private String detail(JsonNode request, long id) {
        for (JsonNode item : get("/api/recoveries/" + request.get("id").asString() + "/outcomes")) {
            if (item.get("primaryKey").get("id").asLong() == id) {
                return item.get("detail").asString();
            }
        }
        throw new AssertionError("no outcome for id " + id);
    }

    private String byKeys(DatasetSpec spec, String keys) {
        return "{\"scope\":{\"type\":\"keys\",\"dataset\":\"" + spec.name() + "\",\"keys\":" + keys + "},\"spec\":"
                + json.writeValueAsString(spec) + ",\"dryRun\":false,\"reason\":\"restore by mistake\"}";
    }

    /** The outcome per id of a finished recovery. */
    private Map<Long, String> outcomes(JsonNode request) {
        Map<Long, String> byId = new HashMap<>();
        for (JsonNode item : get("/api/recoveries/" + request.get("id").asString() + "/outcomes")) {
            byId.put(
                    item.get("primaryKey").get("id").asLong(),
                    item.get("outcome").asString());
        }
        return byId;
    }
}
