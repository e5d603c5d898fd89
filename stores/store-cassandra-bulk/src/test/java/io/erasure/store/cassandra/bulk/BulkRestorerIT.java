package io.erasure.store.cassandra.bulk;

import static io.erasure.store.cassandra.bulk.BulkRestoreFixture.keys;
import static io.erasure.store.cassandra.bulk.BulkRestoreFixture.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bulk path against the real node: SSTables written in a child JVM, imported over JMX, read back,
 * with the online restore's rules (cut-off + 1 µs, remaining TTL, newer data kept, expired left out).
 */
class BulkRestorerIT {

    private static BulkRestoreFixture fixture;

    @BeforeAll
    static void open() {
        fixture = BulkRestoreFixture.open(
                "bulk_restores",
                "run-bulk",
                (adapter, direct) -> BulkFixtures.bulkRestorer(adapter, Clock.systemUTC()));
    }

    @AfterAll
    static void close() {
        fixture.close();
    }

    @Test
    void deletedRowsComeBackIdenticalAtTheCutoffPlusOneMicrosecondWithTheirRemainingTtl() {
        fixture.deletedProfilesComeBackIdenticalAtTheCutoffPlusOneMicrosecondWithTheirRemainingTtl(40);
    }

    @Test
    void aRowReinsertedAfterTheDeleteIsKeptAndTheOthersAreRestored() {
        fixture.aRowReinsertedAfterTheDeleteIsKeptAndTheOthersAreRestored();
    }

    @Test
    void expiredRecordsAreReportedAndNotWritten() {
        DatasetSpec spec = fixture.profiles();
        fixture.write(spec, 1, "short-lived", "s@example.com", 60);
        fixture.write(spec, 2, "long-lived", "l@example.com", 86_400);
        List<DeletionRecord> records = fixture.delete(spec, fixture.adapter().readRows(spec, keys(List.of(1L, 2L))));

        BulkRestorer later = BulkFixtures.bulkRestorer(
                fixture.adapter(), Clock.fixed(Instant.now().plus(Duration.ofMinutes(2)), ZoneOffset.UTC));
        RestoreOutcome outcome = later.restore(spec, records);

        assertThat(outcome.records())
                .extracting(RecordOutcome::status)
                .containsExactly(Status.EXPIRED, Status.RESTORED);
        assertThat(fixture.row(spec, 1)).isNull();
        assertThat(fixture.row(spec, 2).getInt("ttl")).isBetween(86_400 - 180, 86_400 - 120);
    }

    @Test
    void anAnonymisationIsRefusedAndNothingIsWrittenForItsRow() {
        DatasetSpec spec = fixture.profiles();
        fixture.write(spec, 1, "kept", "anonymised@example.com", 0);
        fixture.write(spec, 2, "deleted", "deleted@example.com", 0);
        LiveRow anonymisedRow =
                fixture.adapter().readRows(spec, keys(List.of(1L))).get(0);
        ColumnValue email = anonymisedRow.columns().stream()
                .filter(c -> c.name().equals("email"))
                .findFirst()
                .orElseThrow();
        // forward deletion's anonymisation: email cleared at the cut-off, the row kept, the record holds only email
        fixture.direct()
                .execute(fixture.direct()
                        .prepare("DELETE email FROM " + spec.quotedTable() + " USING TIMESTAMP ?" + " WHERE id = ?")
                        .bind(fixture.cutoff().micros(), 1L));
        DeletionRecord anonymisation = new DeletionRecord(
                DeletionRecord.recordIdFor("request-1", spec.name(), anonymisedRow.key()),
                spec.name(),
                anonymisedRow.key(),
                List.of(email),
                fixture.cutoff(),
                null,
                "request-1",
                "task-1",
                "batch-1",
                Instant.now(),
                null,
                true);
        DeletionRecord deletion = fixture.delete(spec, fixture.adapter().readRows(spec, keys(List.of(2L))))
                .get(0);

        RestoreOutcome outcome = fixture.bulk().restore(spec, List.of(anonymisation, deletion));

        assertThat(outcome.records()).extracting(RecordOutcome::status).containsExactly(Status.FAILED, Status.RESTORED);
        assertThat(outcome.records().get(0).detail()).contains("online");
        Row kept = fixture.row(spec, 1);
        assertThat(kept.getString("name")).isEqualTo("kept");
        assertThat(kept.getLong("wt")).as("the kept column is not rewritten").isEqualTo(fixture.before());
        assertThat(kept.isNull("email"))
                .as("the bulk path wrote nothing for the anonymised row")
                .isTrue();
        assertThat(fixture.row(spec, 2).getString("email")).isEqualTo("deleted@example.com");
    }

    @Test
    void clusteredRowsWithColumnsOfDifferentTtlsComeBackWholeAndRestoringTwiceSaysAlreadyRestored() {
        CqlSession direct = fixture.direct();
        String table = fixture.newTable("events");
        direct.execute("CREATE TABLE " + fixture.keyspace() + "." + table
                + " (customer text, at timestamp, kind text, payload map<text, int>, PRIMARY KEY (customer, at))"
                + " WITH CLUSTERING ORDER BY (at DESC)");
        DatasetSpec spec = BulkFixtures.spec(
                fixture.keyspace(), table, KeyColumns.of(List.of("customer"), List.of("at")), "customer");
        fixture.adapter().checkDataset(spec);
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Instant at = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i);
            direct.execute(direct.prepare("INSERT INTO " + spec.quotedTable() + " (customer, at, kind) VALUES (?, ?, ?)"
                            + " USING TIMESTAMP ? AND TTL 7200")
                    .bind("c-1", at, "kind-" + i, fixture.before()));
            direct.execute(direct.prepare("UPDATE " + spec.quotedTable() + " USING TIMESTAMP ? SET payload = ?"
                            + " WHERE customer = ? AND at = ?")
                    .bind(fixture.before(), Map.of("n", i), "c-1", at));
            keys.add(Map.of("customer", "c-1", "at", at.toString()));
        }
        List<LiveRow> before = fixture.adapter().readRows(spec, keys);
        assertThat(before).hasSize(5);
        List<DeletionRecord> records = fixture.delete(spec, before);

        RestoreOutcome first = fixture.bulk().restore(spec, records);
        RestoreOutcome second = fixture.bulk().restore(spec, records);

        assertThat(first.count(Status.RESTORED)).isEqualTo(5);
        assertThat(second.records()).allSatisfy(r -> assertThat(r.detail()).isEqualTo("already restored"));
        List<LiveRow> after = fixture.adapter().readRows(spec, keys);
        for (int i = 0; i < 5; i++) {
            assertThat(values(after.get(i))).isEqualTo(values(before.get(i)));
        }
        Row row = direct.execute("SELECT TTL(kind) AS ttl_kind, WRITETIME(kind) AS wt FROM " + spec.quotedTable()
                        + " WHERE customer = 'c-1' LIMIT 1")
                .one();
        assertThat(row.getInt("ttl_kind")).isBetween(7000, 7200);
        assertThat(row.getLong("wt")).isEqualTo(fixture.cutoff().restoreWriteTimeMicros());
    }
}
