package io.erasure.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.IdentifierLookup;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import io.erasure.store.tck.ContractTable.FixtureRow;
import io.erasure.support.json.PlatformJson;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The contract every store adapter passes against its real engine. A subclass supplies only the
 * adapter and a {@link ContractTable}; every test works on a fresh table.
 *
 * <p>Tests of what an adapter declares it cannot do ({@link io.erasure.store.spi.StoreCapabilities}) are
 * skipped for it: restores without {@code restore}, cut-off conditions without {@code cutoffConditioned},
 * anonymisation without {@code clearColumns}; lookups unless the adapter implements {@link IdentifierLookup} and the
 * fixture supplies a table with an identifier column ({@link ContractTable#createWithIdentifier}); value fidelity
 * unless the fixture supplies a table for extreme values ({@link ContractTable#createForExtremeValues}).
 *
 * <p>Times: rows are written at {@link #BEFORE} (older than the cut-off) unless a test writes newer data
 * at {@link #AFTER}; deletes use {@link #CUTOFF}.
 */
public abstract class StoreAdapterContractTest {

    private static final AtomicInteger TABLES = new AtomicInteger();

    protected static final long BASE = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    protected static final long BEFORE = BASE;
    protected static final CutoffTimestamp CUTOFF = new CutoffTimestamp(BASE + 1_000_000);
    protected static final long AFTER = CUTOFF.micros() + 1_000;

    /** The JSON settings of the services, which carry deletion records through the log topic and the log. */
    private static final JsonMapper LOG_JSON = PlatformJson.mapper();

    protected DatasetSpec spec;

    /** The adapter under test, shared by the tests of the class. */
    protected abstract StoreAdapter adapter();

    protected abstract ContractTable table();

    @BeforeEach
    void freshTable(TestInfo test) {
        String name = ("c" + TABLES.incrementAndGet() + "_"
                        + test.getTestMethod().orElseThrow().getName())
                .toLowerCase()
                .replaceAll("[^a-z0-9_]", "_");
        spec = table().create(name.substring(0, Math.min(40, name.length())));
        adapter().checkDataset(spec);
    }

    @Test
    void deleteRemovesExactlyTheGivenKeys() {
        writeRows(1, 10, BEFORE);

        DeleteOutcome outcome = delete(keys(2, 4, 6));

        assertThat(outcome.deleted()).isEqualTo(3);
        assertThat(presentIds(1, 10)).containsExactly(1L, 3L, 5L, 7L, 8L, 9L, 10L);
    }

    @Test
    void aRowWrittenAfterTheCutoffSurvives() {
        assumeCutoffConditioned();
        writeRows(1, 2, BEFORE);
        table().write(spec, 2, "newer", 20, AFTER, null);

        DeleteOutcome outcome = delete(keys(1, 2));

        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(table().read(spec, 1)).isEmpty();
        assertThat(table().read(spec, 2)).map(FixtureRow::payload).contains("newer");
    }

    @Test
    void aWriteLandingBetweenPlanAndExecuteSurvives() {
        assumeCutoffConditioned();
        writeRows(1, 2, BEFORE);
        DeletePlan plan = adapter().planDelete(batch(keys(1, 2)));

        table().write(spec, 2, "raced", 99, AFTER, null);
        adapter().executeDelete(plan);

        assertThat(table().read(spec, 1)).isEmpty();
        assertThat(table().read(spec, 2)).map(FixtureRow::payload).contains("raced");
    }

    @Test
    void rerunningABatchChangesNothingMore() {
        writeRows(1, 3, BEFORE);
        DeleteOutcome first = delete(keys(1, 2));

        DeleteOutcome again = delete(keys(1, 2));

        assertThat(first.deleted()).isEqualTo(2);
        assertThat(again.deleted()).isZero();
        assertThat(again.absent()).isEqualTo(2);
        assertThat(presentIds(1, 3)).containsExactly(3L);
        assertThat(table().read(spec, 3)).map(FixtureRow::payload).contains("row-3");
    }

    @Test
    void readDeleteRestoreGivesBackIdenticalRows() {
        assumeRestore();
        table().write(spec, 1, "with ttl", 11, BEFORE, 3600);
        table().write(spec, 2, "no ttl", 22, BEFORE, null);
        FixtureRow before1 = table().read(spec, 1).orElseThrow();
        List<DeletionRecord> records = recordsOf(adapter().readRows(spec, keys(1, 2)));
        assertThat(records).hasSize(2);

        delete(keys(1, 2));
        assertThat(presentIds(1, 2)).isEmpty();
        RestoreOutcome restored = adapter().restore(spec, records);

        assertThat(restored.count(RestoreOutcome.Status.RESTORED)).isEqualTo(2);
        FixtureRow row1 = table().read(spec, 1).orElseThrow();
        FixtureRow row2 = table().read(spec, 2).orElseThrow();
        assertThat(row1.payload()).isEqualTo("with ttl");
        assertThat(row1.score()).isEqualTo(11);
        assertThat(row2.payload()).isEqualTo("no ttl");
        assertThat(row2.score()).isEqualTo(22);
        if (adapter().capabilities().rowTimestamps()) {
            assertThat(row1.writeTimeMicros()).isEqualTo(CUTOFF.restoreWriteTimeMicros());
            assertThat(row2.writeTimeMicros()).isEqualTo(CUTOFF.restoreWriteTimeMicros());
        } else {
            assertThat(row1.writeTimeMicros()).isEqualTo(before1.writeTimeMicros());
        }
        if (adapter().capabilities().cellTtl()) {
            assertThat(row1.ttlSeconds()).isNotNull().isPositive().isLessThanOrEqualTo(before1.ttlSeconds());
            assertThat(row2.ttlSeconds()).isNull();
        }
    }

    @Test
    void aRestoreNeverOverwritesARowWrittenAfterTheDelete() {
        assumeRestore();
        writeRows(1, 2, BEFORE);
        List<DeletionRecord> records = recordsOf(adapter().readRows(spec, keys(1, 2)));
        delete(keys(1, 2));
        table().write(spec, 2, "written after the delete", 77, AFTER, null);

        RestoreOutcome restored = adapter().restore(spec, records);

        assertThat(restored.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(RestoreOutcome.Status.RESTORED, RestoreOutcome.Status.NEWER_DATA_KEPT);
        assertThat(table().read(spec, 1)).map(FixtureRow::payload).contains("row-1");
        FixtureRow kept = table().read(spec, 2).orElseThrow();
        assertThat(kept.payload()).isEqualTo("written after the delete");
        assertThat(kept.score()).isEqualTo(77);
    }

    @Test
    void aDryRunPlanExecutesNothing() {
        writeRows(1, 3, BEFORE);

        DeletePlan plan = adapter().planDelete(batch(keys(1, 2, 3)));

        assertThat(plan.statements()).isNotEmpty();
        assertThat(plan.statements()).allSatisfy(s -> assertThat(s.describe()).contains(spec.table()));
        assertThat(plan.decisions()).hasSize(3);
        assertThat(presentIds(1, 3)).containsExactly(1L, 2L, 3L);
    }

    @Test
    void liveStateReportsPresenceAndLastWrite() {
        table().write(spec, 1, "old", 1, BEFORE, null);
        table().write(spec, 2, "new", 2, AFTER, null);

        List<LiveState> states = adapter().checkLiveState(spec, keys(1, 2, 3));

        assertThat(states).extracting(LiveState::present).containsExactly(true, true, false);
        assumeCutoffConditioned();
        assertThat(states.get(0).writtenAfter(CUTOFF)).isFalse();
        assertThat(states.get(1).writtenAfter(CUTOFF)).isTrue();
        assertThat(states.get(0).lastWriteMicros()).isEqualTo(BEFORE);
    }

    @Test
    void aDatasetOnAMissingTableIsRefusedWithItsName() {
        DatasetSpec missing = table().missing("no_such_table");

        assertThatThrownBy(() -> adapter().checkDataset(missing))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("no_such_table");
    }

    // --- anonymisation (capabilities().clearColumns()) ---

    @Test
    void anonymisingClearsTheColumnsOfRowsAtOrBeforeTheCutoffAndKeepsARowWrittenAfterIt() {
        assumeClearColumns();
        assumeCutoffConditioned();
        writeRows(1, 2, BEFORE);
        table().write(spec, 3, "newer", 30, AFTER, null);

        DeletePlan plan = adapter().planDelete(anonymising(keys(1, 2, 3, 4)));
        DeleteOutcome outcome = adapter().executeDelete(plan);

        assertThat(plan.decisions())
                .extracting(DeletePlan.KeyDecision::action)
                .containsExactly(
                        DeletePlan.Action.CLEAR_COLUMNS, DeletePlan.Action.CLEAR_COLUMNS,
                        DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF, DeletePlan.Action.ABSENT);
        assertThat(outcome.deleted()).as("rows cleared").isEqualTo(2);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(outcome.absent()).isEqualTo(1);
        assertThat(table().read(spec, 1)).hasValueSatisfying(row -> {
            assertThat(row.payload()).isNull();
            assertThat(row.score()).as("a column not cleared is kept").isEqualTo(10);
        });
        assertThat(table().read(spec, 2)).map(FixtureRow::payload).isEmpty();
        assertThat(presentIds(1, 4)).as("anonymised rows stay").containsExactly(1L, 2L, 3L);
        FixtureRow newer = table().read(spec, 3).orElseThrow();
        assertThat(newer.payload()).isEqualTo("newer");
        assertThat(newer.score()).isEqualTo(30);
    }

    @Test
    void restoringAnAnonymisedRecordPutsBackItsColumnsButNeverOverANewerValue() {
        assumeClearColumns();
        assumeRestore();
        writeRows(1, 2, BEFORE);
        List<DeletionRecord> records = anonymisedRecordsOf(adapter().readRows(spec, keys(1, 2)), List.of("payload"));
        adapter().executeDelete(adapter().planDelete(anonymising(keys(1, 2))));
        table().write(spec, 2, "set again", 21, AFTER, null);

        RestoreOutcome restored = adapter().restore(spec, records);

        assertThat(restored.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(RestoreOutcome.Status.RESTORED, RestoreOutcome.Status.NEWER_DATA_KEPT);
        FixtureRow row1 = table().read(spec, 1).orElseThrow();
        assertThat(row1.payload()).isEqualTo("row-1");
        assertThat(row1.score()).isEqualTo(10);
        FixtureRow row2 = table().read(spec, 2).orElseThrow();
        assertThat(row2.payload()).isEqualTo("set again");
        assertThat(row2.score()).isEqualTo(21);
    }

    // --- lookups by identifier (adapters that implement IdentifierLookup) ---

    @Test
    void aLookupFindsEveryKeyOfItsIdentifiersAndNoOther() {
        DatasetSpec members = identifierTable(true);
        long[][] rows = {{1, 100}, {2, 200}, {3, 100}, {4, 300}, {5, 100}, {6, 1000}};
        for (long[] row : rows) {
            table().writeWithIdentifier(members, row[0], row[1], "row-" + row[0], 1, BEFORE);
        }
        IdentifierLookup lookup = (IdentifierLookup) adapter();

        assertThat(lookup.lookupRefusal(members)).isEmpty();
        assertThat(ids(lookup.keysByIdentifier(members, List.of(100L), 100))).containsExactlyInAnyOrder(1L, 3L, 5L);
        assertThat(ids(lookup.keysByIdentifier(members, List.of(100L, 300L), 100)))
                .containsExactlyInAnyOrder(1L, 3L, 4L, 5L);
        assertThat(lookup.keysByIdentifier(members, List.of(999L), 100)).isEmpty();
        assertThat(ids(lookup.keysByIdentifier(members, List.of(100L), 2)))
                .as("at most limit keys")
                .hasSize(2)
                .isSubsetOf(1L, 3L, 5L);
    }

    @Test
    void aLookupOnAColumnTheStoreCannotSearchIsRefusedAndReadsNothing() {
        DatasetSpec members = identifierTable(false);
        table().writeWithIdentifier(members, 1, 100, "row-1", 1, BEFORE);
        IdentifierLookup lookup = (IdentifierLookup) adapter();

        String refusal = lookup.lookupRefusal(members).orElseThrow();

        assertThat(refusal).isNotNull().contains(members.table()).contains("member");
        assertThatThrownBy(() -> lookup.keysByIdentifier(members, List.of(100L), 10))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // --- value fidelity through the log (ContractTable#createForExtremeValues) ---

    @Test
    void extremeValuesAreRestoredExactlyFromTheirRecordAfterItsTripThroughTheLog() {
        assumeRestore();
        spec = extremeValuesTable();
        table().writeExtremeValues(spec, 1, BEFORE);
        Map<String, String> stored = table().readExactly(spec, 1).orElseThrow();
        List<DeletionRecord> logged = recordsOf(adapter().readRows(spec, keys(1))).stream()
                .map(StoreAdapterContractTest::throughTheLog)
                .toList();
        assertThat(logged).hasSize(1);

        delete(keys(1));
        assertThat(table().readExactly(spec, 1)).as("deleted").isEmpty();
        RestoreOutcome restored = adapter().restore(spec, logged);

        assertThat(restored.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(RestoreOutcome.Status.RESTORED);
        assertThat(table().readExactly(spec, 1))
                .as("the restored row, as the store renders it")
                .hasValueSatisfying(row -> assertThat(row).containsExactlyInAnyOrderEntriesOf(stored));
    }

    // --- helpers for subclasses' own store-specific tests ---

    protected void assumeCutoffConditioned() {
        assumeTrue(
                adapter().capabilities().cutoffConditioned(), "the adapter does not condition deletes on the cut-off");
    }

    protected void assumeRestore() {
        assumeTrue(adapter().capabilities().restore(), "the adapter does not restore");
    }

    protected void assumeClearColumns() {
        assumeTrue(adapter().capabilities().clearColumns(), "the adapter does not anonymise (clear columns)");
    }

    /** A fresh table with an identifier column {@code member} from the fixture, checked; skips when there is none. */
    protected DatasetSpec identifierTable(boolean indexed) {
        assumeTrue(adapter() instanceof IdentifierLookup, "the adapter does not look up identifiers");
        DatasetSpec members = table().createWithIdentifier(spec.table() + (indexed ? "_ix" : "_nx"), indexed)
                .orElse(null);
        assumeTrue(members != null, "the fixture has no table with an identifier column");
        adapter().checkDataset(members);
        return members;
    }

    /** A fresh table for extreme values from the fixture, checked; skips when there is none. */
    protected DatasetSpec extremeValuesTable() {
        DatasetSpec extremes =
                table().createForExtremeValues(spec.table() + "_x").orElse(null);
        assumeTrue(extremes != null, "the fixture has no table for extreme values");
        adapter().checkDataset(extremes);
        return extremes;
    }

    /**
     * A record as a restore gets it back: published as JSON to the log topic and read by the log's ingest, then its
     * key and columns stored as JSON in the log and read again by recovery, all through the services' mapper.
     */
    protected static DeletionRecord throughTheLog(DeletionRecord published) {
        DeletionRecord ingested = LOG_JSON.readerFor(DeletionRecord.class)
                .without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .readValue(LOG_JSON.writeValueAsString(published));
        LoggedPayload payload = LOG_JSON.readValue(
                LOG_JSON.writeValueAsString(new LoggedPayload(ingested.primaryKey(), ingested.columns())),
                LoggedPayload.class);
        return new DeletionRecord(
                ingested.recordId(),
                ingested.dataset(),
                payload.primaryKey(),
                payload.columns(),
                ingested.cutoff(),
                ingested.runId(),
                ingested.requestId(),
                ingested.taskId(),
                ingested.batchId(),
                ingested.deletedAt(),
                ingested.retainedRef(),
                ingested.anonymised());
    }

    /** The shape of what the log keeps encrypted per record (deletion-log-client's {@code Payload}). */
    private record LoggedPayload(Map<String, Object> primaryKey, List<ColumnValue> columns) {}

    /** A batch that clears {@code payload} of the rows instead of deleting them. */
    protected DeleteBatch anonymising(List<Map<String, Object>> keys) {
        return new DeleteBatch(spec, "batch-" + TABLES.get(), CUTOFF, keys, List.of("payload"));
    }

    /** Anonymised records as the deletion service writes them: only the non-null values of the columns it clears. */
    protected List<DeletionRecord> anonymisedRecordsOf(List<LiveRow> rows, List<String> clearColumns) {
        DeletionTask task = DeletionTask.forward(
                "req-contract", spec, rows.stream().map(LiveRow::key).toList(), CUTOFF, 0, clearColumns);
        return rows.stream()
                .map(row -> DeletionRecord.of(
                        task,
                        "batch-1",
                        row.key(),
                        row.columns().stream()
                                .filter(c -> clearColumns.contains(c.name()) && c.value() != null)
                                .toList(),
                        Instant.now()))
                .toList();
    }

    protected static List<Long> ids(List<Map<String, Object>> keys) {
        return keys.stream().map(key -> ((Number) key.get("id")).longValue()).toList();
    }

    protected DeleteOutcome delete(List<Map<String, Object>> keys) {
        return adapter().executeDelete(adapter().planDelete(batch(keys)));
    }

    protected DeleteBatch batch(List<Map<String, Object>> keys) {
        return new DeleteBatch(spec, "batch-" + TABLES.get(), CUTOFF, keys);
    }

    protected static List<Map<String, Object>> keys(long... ids) {
        return LongStream.of(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }

    protected void writeRows(long fromId, long toId, long writeTimeMicros) {
        for (long id = fromId; id <= toId; id++) {
            table().write(spec, id, "row-" + id, (int) id * 10, writeTimeMicros, null);
        }
    }

    protected List<Long> presentIds(long fromId, long toId) {
        return LongStream.rangeClosed(fromId, toId)
                .filter(id -> table().read(spec, id).isPresent())
                .boxed()
                .toList();
    }

    /** Deletion records as the deletion service writes them, from rows read before the delete. */
    protected List<DeletionRecord> recordsOf(List<LiveRow> rows) {
        DeletionTask task = DeletionTask.forRun(
                RunId.of("run-contract"), spec, rows.stream().map(LiveRow::key).toList(), CUTOFF);
        return rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
    }
}
