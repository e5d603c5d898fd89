package io.erasure.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.audit.testdata.AuditTestKit;
import io.erasure.audit.testdata.GeneratedData;
import io.erasure.backup.format.BackupRow;
import io.erasure.infra.LocalEngines;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.event.AuditCompleted;
import io.erasure.model.event.AuditFailed;
import io.erasure.model.event.AuditRequested;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import io.erasure.support.trust.SpecDigest;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The audit service end to end against real Kafka and S3: AuditRequested on erasure.run.commands,
 * backups in S3, candidate files and AuditCompleted / AuditFailed out. Nothing else is running: no
 * live store exists in this test, so the audit can only have read S3.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "erasure.audit.workers=2",
            "erasure.audit.unit-partitions=4",
            "erasure.audit.max-attempts=2",
            "erasure.audit.retry-pause=100ms"
        })
class AuditServiceIT {

    static final AuditTestKit KIT = new AuditTestKit(LocalEngines.s3(), LocalEngines.kafka());
    static final Duration WAIT = Duration.ofSeconds(90);

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        LocalEngines.kafka().springProperties().forEach((k, v) -> registry.add(k, () -> v));
        LocalEngines.s3().springProperties().forEach((k, v) -> registry.add(k, () -> v));
    }

    @AfterAll
    static void close() {
        KIT.close();
    }

    static String iso(Instant instant) {
        return instant.toString();
    }

    static List<String> rendered(List<Candidate> candidates) {
        return candidates.stream()
                .map(c -> CanonicalKey.render(c.key()) + " " + c.identifier() + " " + c.writeTimeMicros())
                .toList();
    }

    static EventEnvelope awaitOutcome(String runId) {
        await().atMost(WAIT).until(() -> !KIT.events(runId).isEmpty());
        return KIT.events(runId).get(0);
    }

    /** Parquet parts (a team's export listed in a manifest of ours) go through the same audit, by column. */
    @ParameterizedTest
    @EnumSource(
            value = BackupFormat.class,
            names = {"JSONL_GZIP", "PARQUET"})
    void numericIdentifiersOnCompositeKeysGiveExactlyTheRowsOfCustomersDeletableAsOfTheIdentifierBackup(
            BackupFormat format) throws IOException {
        String dataset = AuditTestKit.unique("orders");
        String sourceName = AuditTestKit.unique("customers");
        Instant now = Instant.now();
        // a short grace: the identifier backup's cut-off (two days ago) is what excludes later deletions
        IdentifierSource source = AuditTestKit.source(sourceName, format, Duration.ofHours(1));
        DatasetSpec spec =
                AuditTestKit.spec(dataset, GeneratedData.ORDERS.keyColumns(), "customer_id", sourceName, format);

        Map<Object, String> deletedAt = new LinkedHashMap<>();
        Set<Long> deletable = new HashSet<>();
        for (long c = 1; c <= 120; c++) {
            if (c % 4 == 0) {
                deletedAt.put(c, iso(now.minus(Duration.ofDays(10))));
                deletable.add(c);
            } else if (c % 4 == 1) {
                deletedAt.put(c, iso(now.minus(Duration.ofDays(1)))); // marked after the identifier backup's cut-off
            } else if (c % 4 == 2) {
                deletedAt.put(c, null); // live customer
            } // c % 4 == 3: not in the identifier backup at all
        }
        long identifierCutoff =
                CutoffTimestamp.fromInstant(now.minus(Duration.ofDays(2))).micros();
        GeneratedData.writeSnapshot(
                KIT.bucket,
                sourceName,
                source.backup(),
                "20240130T000000Z",
                GeneratedData.customers("bigint"),
                identifierCutoff,
                GeneratedData.customers(deletedAt),
                2);

        List<BackupRow> rows = GeneratedData.orders(9_000, 130, 21);
        GeneratedData.writeSnapshot(
                KIT.bucket,
                dataset,
                spec.backup(),
                "20240131T020000Z",
                GeneratedData.ORDERS,
                GeneratedData.T0_MICROS,
                rows,
                3);
        // a newer snapshot still being exported (no manifest): never audited
        KIT.s3.putObject(
                r -> r.bucket(KIT.bucket.bucket()).key(S3Layout.partKey(spec.backup(), "20240201T020000Z", 0)),
                RequestBody.fromString("not even gzip"));

        String runId = AuditTestKit.unique("run");
        KIT.sendCommand(runId, new AuditRequested(spec, source, false));

        EventEnvelope outcome = awaitOutcome(runId);
        List<Candidate> expected = GeneratedData.expectedCandidates(rows, GeneratedData.ORDERS, deletable).stream()
                .map(c -> format.streamed() ? c : new Candidate(c.key(), c.identifier(), null))
                .toList();
        assertThat(expected).hasSizeGreaterThan(1_000);
        assertThat(outcome.payload())
                .isEqualTo(new AuditCompleted(
                        dataset,
                        "20240131T020000Z",
                        CutoffTimestamp.ofMicros(GeneratedData.T0_MICROS),
                        9_000,
                        expected.size(),
                        S3Layout.candidatesPrefix(RunId.of(runId)),
                        SpecDigest.of(spec)));
        // sealed with audit-service's key, as the control plane checks it (read back from the topic)
        assertThat(outcome.seal().keyId()).isEqualTo("audit-local");
        assertThat(AuditTestKit.refusal(outcome)).isEmpty();
        assertThat(KIT.candidateParts(runId))
                .containsExactly(
                        S3Layout.candidatesPartKey(RunId.of(runId), 0),
                        S3Layout.candidatesPartKey(RunId.of(runId), 1),
                        S3Layout.candidatesPartKey(RunId.of(runId), 2));
        assertThat(rendered(KIT.candidates(runId))).containsExactlyElementsOf(rendered(expected));
        assertThat(KIT.events(runId)).hasSize(1);
    }

    @Test
    void stringIdentifiersFromACsvIdentifierBackupRespectTheGracePeriod() throws IOException {
        String dataset = AuditTestKit.unique("sessions");
        String sourceName = AuditTestKit.unique("accounts");
        Instant now = Instant.now();
        IdentifierSource source = AuditTestKit.source(sourceName, BackupFormat.CSV, Duration.ofDays(3));
        DatasetSpec spec = AuditTestKit.spec(
                dataset, GeneratedData.SESSIONS.keyColumns(), "account", sourceName, BackupFormat.JSONL_ZSTD);

        Map<Object, String> deletedAt = new LinkedHashMap<>();
        Set<String> deletable = new HashSet<>();
        for (int n = 1; n <= 90; n++) {
            String account = GeneratedData.account(n);
            if (n % 3 == 0) {
                deletedAt.put(account, iso(now.minus(Duration.ofDays(30))));
                deletable.add(account);
            } else if (n % 3 == 1) {
                deletedAt.put(account, iso(now.minus(Duration.ofDays(1)))); // still within the 3-day grace period
            }
        }
        GeneratedData.writeSnapshot(
                KIT.bucket,
                sourceName,
                source.backup(),
                "20240131T010000Z",
                GeneratedData.customers("text"),
                CutoffTimestamp.fromInstant(now).micros(),
                GeneratedData.customers(deletedAt),
                1);
        List<BackupRow> rows = GeneratedData.sessions(6_000, 100, 22);
        GeneratedData.writeSnapshot(
                KIT.bucket,
                dataset,
                spec.backup(),
                "20240131T020000Z",
                GeneratedData.SESSIONS,
                GeneratedData.T0_MICROS,
                rows,
                2);

        String runId = AuditTestKit.unique("run");
        KIT.sendCommand(runId, new AuditRequested(spec, source, false));

        AuditCompleted completed = awaitOutcome(runId).payloadAs(AuditCompleted.class);
        List<Candidate> expected = GeneratedData.expectedCandidates(rows, GeneratedData.SESSIONS, deletable);
        assertThat(completed.rowsScanned()).isEqualTo(6_000);
        assertThat(completed.candidateCount()).isEqualTo(expected.size());
        assertThat(rendered(KIT.candidates(runId))).containsExactlyElementsOf(rendered(expected));
    }

    @Test
    void aCorruptedPartFailsTheRunWithTheChecksumMismatchAndNothingCompletes() throws IOException {
        Fixture fixture = fixture(BackupFormat.JSONL_GZIP, GeneratedData.ORDERS);
        String partKey = S3Layout.partKey(fixture.spec.backup(), "20240131T020000Z", 1);
        byte[] bytes = KIT.bytes(partKey);
        bytes[bytes.length / 2] ^= 0x01;
        KIT.s3.putObject(r -> r.bucket(KIT.bucket.bucket()).key(partKey), RequestBody.fromBytes(bytes));

        String runId = AuditTestKit.unique("run");
        KIT.sendCommand(runId, new AuditRequested(fixture.spec, fixture.source, false));

        AuditFailed failed = awaitOutcome(runId).payloadAs(AuditFailed.class);
        assertThat(failed.dataset()).isEqualTo(fixture.spec.name());
        assertThat(failed.reason())
                .startsWith("checksum mismatch for part part-00001.jsonl.gz: the manifest says SHA-256 ");
        assertNothingCompletes(runId, 1);
    }

    @Test
    void aMissingPartFailsTheRunNamingIt() throws IOException {
        Fixture fixture = fixture(BackupFormat.CSV, GeneratedData.ORDERS);
        String partKey = S3Layout.partKey(fixture.spec.backup(), "20240131T020000Z", 2);
        KIT.s3.deleteObject(r -> r.bucket(KIT.bucket.bucket()).key(partKey));

        String runId = AuditTestKit.unique("run");
        KIT.sendCommand(runId, new AuditRequested(fixture.spec, fixture.source, false));

        assertThat(awaitOutcome(runId).payloadAs(AuditFailed.class).reason())
                .isEqualTo("part " + partKey
                        + " is missing: the manifest lists it but the object does not exist;"
                        + " the snapshot is incomplete or was partly deleted");
        assertNothingCompletes(runId, 2);
    }

    @Test
    void aBackupWithoutTheIdentifierColumnFailsBeforeAnyUnit() throws IOException {
        BackupSchema withoutIdentifier = new BackupSchema(
                List.of(
                        new ColumnSchema("customer", "bigint"),
                        new ColumnSchema("order_id", "text"),
                        new ColumnSchema("total", "decimal"),
                        new ColumnSchema("note", "text")),
                KeyColumns.of(List.of("customer"), List.of("order_id")),
                "customer");
        Fixture fixture = fixture(BackupFormat.JSONL_GZIP, withoutIdentifier);

        String runId = AuditTestKit.unique("run");
        KIT.sendCommand(runId, new AuditRequested(fixture.spec, fixture.source, false));

        String manifestKey = S3Layout.manifestKey(fixture.spec.backup(), "20240131T020000Z");
        assertThat(awaitOutcome(runId).payloadAs(AuditFailed.class).reason())
                .isEqualTo("backup " + manifestKey
                        + " has no column 'customer_id' (the dataset's identifier column); its columns are"
                        + " [customer, order_id, total, note]");
        assertNothingCompletes(runId, -1);
    }

    @Test
    void aDatasetWithoutACompleteBackupFails() {
        String dataset = AuditTestKit.unique("orders");
        String sourceName = AuditTestKit.unique("customers");
        DatasetSpec spec = AuditTestKit.spec(
                dataset, GeneratedData.ORDERS.keyColumns(), "customer_id", sourceName, BackupFormat.JSONL_GZIP);
        String runId = AuditTestKit.unique("run");
        KIT.sendCommand(
                runId,
                new AuditRequested(
                        spec, AuditTestKit.source(sourceName, BackupFormat.JSONL_GZIP, Duration.ZERO), false));

        assertThat(AuditTestKit.refusal(awaitOutcome(runId)))
                .as("a failure is sealed too")
                .isEmpty();
        assertThat(awaitOutcome(runId).payloadAs(AuditFailed.class).reason())
                .isEqualTo("no complete backup of dataset '" + dataset + "' under backups/" + dataset
                        + "/: a snapshot is complete once its manifest.json exists");
    }

    /**
     * No AuditCompleted, ever, and no candidate file for the failed unit (other units may have
     * finished theirs before; validation never starts on a failed run). {@code failedUnit} -1: no
     * unit ran at all.
     */
    private static void assertNothingCompletes(String runId, int failedUnit) {
        // give the other units time to be taken and skipped
        await().pollDelay(Duration.ofSeconds(3)).atMost(WAIT).until(() -> true);
        assertThat(KIT.events(runId)).extracting(EventEnvelope::eventType).containsOnly("AuditFailed");
        assertThat(KIT.events(runId).stream().map(EventEnvelope::eventId).distinct())
                .hasSize(1);
        if (failedUnit < 0) {
            assertThat(KIT.candidateParts(runId)).isEmpty();
        } else {
            assertThat(KIT.candidateParts(runId))
                    .doesNotContain(S3Layout.candidatesPartKey(RunId.of(runId), failedUnit))
                    .hasSizeLessThan(3);
        }
    }

    record Fixture(DatasetSpec spec, IdentifierSource source) {}

    private static Fixture fixture(BackupFormat format, BackupSchema schema) throws IOException {
        String dataset = AuditTestKit.unique("orders");
        String sourceName = AuditTestKit.unique("customers");
        IdentifierSource source = AuditTestKit.source(sourceName, BackupFormat.JSONL_GZIP, Duration.ZERO);
        DatasetSpec spec =
                AuditTestKit.spec(dataset, GeneratedData.ORDERS.keyColumns(), "customer_id", sourceName, format);
        Map<Object, String> deletedAt = new LinkedHashMap<>();
        for (long c = 1; c <= 20; c++) {
            deletedAt.put(c, iso(Instant.now().minus(Duration.ofDays(10))));
        }
        GeneratedData.writeSnapshot(
                KIT.bucket,
                sourceName,
                source.backup(),
                "20240131T010000Z",
                GeneratedData.customers("bigint"),
                CutoffTimestamp.fromInstant(Instant.now()).micros(),
                GeneratedData.customers(deletedAt),
                1);
        List<BackupRow> rows = GeneratedData.orders(3_000, 40, 23);
        if (!schema.equals(GeneratedData.ORDERS)) {
            rows = rows.stream()
                    .map(r -> {
                        Map<String, Object> values = new LinkedHashMap<>(r.values());
                        values.put("customer", values.remove("customer_id"));
                        return new BackupRow(values, r.writeTimes());
                    })
                    .toList();
        }
        GeneratedData.writeSnapshot(
                KIT.bucket, dataset, spec.backup(), "20240131T020000Z", schema, GeneratedData.T0_MICROS, rows, 3);
        return new Fixture(spec, source);
    }
}
