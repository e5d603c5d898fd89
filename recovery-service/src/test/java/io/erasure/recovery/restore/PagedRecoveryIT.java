package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import io.erasure.deletionlog.client.DatasetKeys;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.PayloadCipher;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.recovery.RecoveryScope;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.recovery.RecoveryProperties;
import io.erasure.recovery.RecoveryTestSupport;
import io.erasure.store.spi.BulkRestoreProviders;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.stores.StoreConnectionsProperties;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * Recoveries by run and by window read the log a page at a time and restore each page before reading the next; by keys
 * they read the log in multi-key statements. The runner runs here on a log session that counts what the real node
 * returns (records with their payloads, statements on the by-key table) and a store that counts what is settled, so the
 * records a recovery holds at once are observed, not assumed. Pages of {@value #PAGE} records, rows in the real
 * PostgreSQL and Cassandra, the log in the real Cassandra.
 */
class PagedRecoveryIT extends RecoveryTestSupport {

    private static final int PAGE = 50;
    private static final long WRITTEN = CutoffTimestamp.toMicros(Instant.now()) - 3_600_000_000L;
    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(WRITTEN + 1_000_000);

    @Autowired
    StoreAdapterPool adapters;

    @Autowired
    BulkRestores bulk;

    @Autowired
    RetainedRows retained;

    @Autowired
    FrozenSpecGuard frozenSpecs;

    @Autowired
    StoreConnectionsProperties connections;

    @Autowired
    RecoveryProperties properties;

    @Value("${erasure.deletion-log.master-key}")
    String masterKey;

    @Test
    void aRecoveryByRunOfManyPagesRestoresEveryRowOnceAndHoldsOnePageAtATime() {
        int rows = 620;
        DatasetSpec spec = postgresTable();
        List<Long> ids = LongStream.rangeClosed(1, rows).boxed().toList();
        insert(spec, ids, "owner-");
        List<Map<String, Object>> before = table(spec);
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, ids, Instant.now());
        assertThat(count(spec)).isZero();
        Observed observed = new Observed();
        RecoveryRunner runner = runner(observed, bulk);

        RecoveryStore.RequestView dryRun = recover(runner, new RecoveryScope.ByRun(run), spec, true);

        assertThat(dryRun.status()).isEqualTo(RecoveryStore.Status.COMPLETED);
        assertThat(dryRun.restored()).as("restorable, in a dry-run").isEqualTo(rows);
        assertThat(count(spec)).as("a dry-run writes nothing").isZero();
        observed.reset();

        RecoveryStore.RequestView restore = recover(runner, new RecoveryScope.ByRun(run), spec, false);

        assertThat(restore.status()).as(restore.failure()).isEqualTo(RecoveryStore.Status.COMPLETED);
        assertThat(restore.recordsTotal()).isEqualTo(rows);
        assertThat(restore.recordsDone()).as("each record settled once").isEqualTo(rows);
        assertThat(restore.restored()).isEqualTo(rows);
        assertThat(restore.conflicts() + restore.failed() + restore.expired() + restore.purged())
                .isZero();
        assertThat(outcomes(restore.id()))
                .hasSize(rows)
                .allSatisfy((recordId, outcome) -> assertThat(outcome).isEqualTo("RESTORED"));
        assertThat(table(spec)).as("every row back, identical").isEqualTo(before);
        assertThat(observed.recordsRead.get())
                .as("the run's records, each read once with its columns")
                .isEqualTo(rows);
        assertThat(observed.mostHeld.get())
                .as("records read with their columns and not yet settled, at most")
                .isPositive()
                .isLessThanOrEqualTo(PAGE);

        RecoveryStore.RequestView again = recover(runner, new RecoveryScope.ByRun(run), spec, false);

        assertThat(again.restored()).as("a re-run restores nothing twice").isZero();
        assertThat(again.conflicts()).isEqualTo(rows);
        assertThat(store().outcomes(again.id(), 5_000, 0))
                .hasSize(rows)
                .allSatisfy(item -> assertThat(item.detail()).startsWith("already restored"));
        assertThat(table(spec)).isEqualTo(before);
    }

    @Test
    void aRecoveryByRunRestoresChildRowsWhoseParentsRecordsComePagesLater() {
        // the run's records come in record-id order: most items' pages come before, or after, their order's
        int orders = 60;
        DatasetSpec spec = ordersWithItems();
        List<Long> ids = LongStream.rangeClosed(1, orders).boxed().toList();
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        jdbc.batchUpdate(
                "INSERT INTO recovery_it.orders_with_items (id, name, updated_at) VALUES (?, ?, ?)",
                ids.stream()
                        .map(id -> new Object[] {id, "order-" + id, updated})
                        .toList());
        jdbc.batchUpdate(
                "INSERT INTO recovery_it.orders_with_items_items (item_id, order_id, sku, updated_at)"
                        + " VALUES (?, ?, ?, ?)",
                ids.stream()
                        .flatMap(id -> LongStream.rangeClosed(1, 2)
                                .mapToObj(i -> new Object[] {id * 10 + i, id, "sku-" + id + "-" + i, updated}))
                        .toList());
        List<Map<String, Object>> ordersBefore =
                jdbc.queryForList("SELECT * FROM recovery_it.orders_with_items ORDER BY id");
        List<Map<String, Object>> itemsBefore =
                jdbc.queryForList("SELECT * FROM recovery_it.orders_with_items_items ORDER BY item_id");
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, ids, Instant.now());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_it.orders_with_items_items", Long.class))
                .isZero();

        RecoveryStore.RequestView restore =
                recover(runner(new Observed(), bulk), new RecoveryScope.ByRun(run), spec, false);

        assertThat(restore.status()).as(restore.failure()).isEqualTo(RecoveryStore.Status.COMPLETED);
        assertThat(restore.recordsTotal()).as("60 orders and their 120 items").isEqualTo(orders * 3L);
        assertThat(restore.failed())
                .as("no item refused for an order restored pages later")
                .isZero();
        assertThat(restore.restored()).isEqualTo(orders * 3L);
        assertThat(restore.recordsDone()).as("each record settled once").isEqualTo(orders * 3L);
        assertThat(outcomes(restore.id()))
                .hasSize(orders * 3)
                .allSatisfy((recordId, outcome) -> assertThat(outcome).isEqualTo("RESTORED"));
        assertThat(jdbc.queryForList("SELECT * FROM recovery_it.orders_with_items ORDER BY id"))
                .isEqualTo(ordersBefore);
        assertThat(jdbc.queryForList("SELECT * FROM recovery_it.orders_with_items_items ORDER BY item_id"))
                .isEqualTo(itemsBefore);
    }

    @Test
    void aChildRowWhoseParentCannotComeBackIsFailedOnceWithTheReason() {
        DatasetSpec spec = ordersWithItems();
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        jdbc.update(
                "INSERT INTO recovery_it.orders_with_items (id, name, updated_at) VALUES (1, 'order-1', ?)", updated);
        jdbc.update(
                "INSERT INTO recovery_it.orders_with_items_items (item_id, order_id, sku, updated_at)"
                        + " VALUES (11, 1, 'a', ?)",
                updated);
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, List.of(1L), Instant.now());
        // the table no longer accepts the order as it was: the order is refused, so its item has no parent to go under
        jdbc.execute("ALTER TABLE recovery_it.orders_with_items ADD CONSTRAINT renamed CHECK (name <> 'order-1')");

        RecoveryStore.RequestView restore =
                recover(runner(new Observed(), bulk), new RecoveryScope.ByRun(run), spec, false);

        assertThat(restore.recordsDone()).as("each record settled once").isEqualTo(2);
        assertThat(restore.restored()).isZero();
        assertThat(restore.failed()).isEqualTo(2);
        assertThat(store().outcomes(restore.id(), 10, 0))
                .extracting(RecoveryItem::detail)
                .anySatisfy(detail -> assertThat(detail).contains("renamed"))
                .anySatisfy(detail -> assertThat(detail).startsWith("its parent row is not in the store"));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM recovery_it.orders_with_items_items", Long.class))
                .isZero();
    }

    @Test
    void aWindowRecoveryRestoresEachKeysLatestRecordOnceThoughItIsPagesAhead() {
        DatasetSpec spec = postgresTable();
        List<Long> ids = LongStream.rangeClosed(1, 150).boxed().toList();
        List<Long> deletedTwice = LongStream.rangeClosed(1, 60).boxed().toList();
        Instant windowStart = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(30, ChronoUnit.MINUTES);
        insert(spec, ids, "first-");
        RunId first = RunId.of(unique("run"));
        logAndDelete(spec, first, ids, windowStart.plusSeconds(60));
        // written again by the application, then deleted again by a later run: that later row is the one to bring back
        insert(spec, deletedTwice, "second-");
        logAndDelete(spec, RunId.of(unique("run")), deletedTwice, windowStart.plusSeconds(600));
        Observed observed = new Observed();

        RecoveryStore.RequestView restore = recover(
                runner(observed, bulk),
                new RecoveryScope.ByTimeWindow(spec.name(), windowStart, windowStart.plus(20, ChronoUnit.MINUTES)),
                spec,
                false);

        assertThat(restore.status()).as(restore.failure()).isEqualTo(RecoveryStore.Status.COMPLETED);
        assertThat(restore.recordsTotal()).as("one record per key").isEqualTo(ids.size());
        assertThat(restore.recordsDone()).isEqualTo(ids.size());
        assertThat(restore.restored()).isEqualTo(ids.size());
        assertThat(restore.conflicts())
                .as("no older record restored first, to conflict with the latest")
                .isZero();
        Map<String, String> outcomes = outcomes(restore.id());
        Set<String> olderRecords = deletedTwice.stream()
                .map(id -> DeletionRecord.recordIdFor(first.value(), spec.name(), Map.of("id", id)))
                .collect(Collectors.toSet());
        assertThat(outcomes).hasSize(ids.size()).doesNotContainKeys(olderRecords.toArray(String[]::new));
        assertThat(jdbc.queryForList("SELECT name FROM recovery_it." + spec.table() + " ORDER BY id", String.class))
                .containsExactlyElementsOf(ids.stream()
                        .map(id -> (id <= 60 ? "second-" : "first-") + id)
                        .toList());
        assertThat(observed.recordsRead.get())
                .as("210 records in the window")
                .isEqualTo(ids.size() + deletedTwice.size());
        assertThat(observed.mostHeld.get())
                .as("a page, and the 60 older records let go without an outcome")
                .isPositive()
                .isLessThanOrEqualTo(PAGE + deletedTwice.size());
    }

    @Test
    void aByKeysRecoveryOfManyKeysReadsTheLogInMultiKeyStatements() {
        DatasetSpec spec = postgresTable();
        List<Long> ids = LongStream.rangeClosed(1, 300).boxed().toList();
        insert(spec, ids, "owner-");
        logAndDelete(spec, RunId.of(unique("run")), ids, Instant.now());
        List<Map<String, Object>> keys = LongStream.rangeClosed(1, 320)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
        Observed observed = new Observed();

        RecoveryStore.RequestView restore =
                recover(runner(observed, bulk), new RecoveryScope.ByKeys(spec.name(), keys), spec, false);

        assertThat(restore.status()).as(restore.failure()).isEqualTo(RecoveryStore.Status.COMPLETED);
        assertThat(restore.recordsTotal()).isEqualTo(keys.size());
        assertThat(restore.recordsDone()).isEqualTo(keys.size());
        assertThat(restore.restored()).isEqualTo(ids.size());
        assertThat(restore.notInLog()).as("keys 301..320 were never deleted").isEqualTo(20);
        assertThat(count(spec)).isEqualTo(ids.size());
        assertThat(observed.keyStatements.get())
                .as("statements on the log's by-key and purge-marker tables for 320 keys")
                .isPositive()
                .isLessThan(keys.size() / 10);
    }

    @Test
    void aBulkRecoveryByRunGathersItsBatchesAcrossPages() {
        int rows = 130;
        int bulkBatch = 60;
        DatasetSpec spec = cassandraTable();
        List<Long> ids = LongStream.rangeClosed(1, rows).boxed().toList();
        for (long id : ids) {
            session.execute(
                    session.prepare("INSERT INTO " + spec.quotedTable() + " (id, name) VALUES (?, ?) USING TIMESTAMP ?")
                            .bind(id, "name-" + id, WRITTEN));
        }
        RunId run = RunId.of(unique("run"));
        logAndDelete(spec, run, ids, Instant.now());
        Observed observed = new Observed();
        BulkRestores batchesOf60 = new BulkRestores(
                adapters,
                connections,
                BulkRestoreProviders.load(),
                Clock.systemUTC(),
                BULK_THRESHOLD,
                bulkBatch,
                properties.bulkOptions());

        RecoveryStore.RequestView restore =
                recover(runner(observed, batchesOf60), new RecoveryScope.ByRun(run), spec, false);

        assertThat(restore.status()).as(restore.failure()).isEqualTo(RecoveryStore.Status.COMPLETED);
        assertThat(restore.path()).isEqualTo(RestorePath.BULK);
        assertThat(restore.recordsTotal()).isEqualTo(rows);
        assertThat(restore.recordsDone()).isEqualTo(rows);
        assertThat(restore.restored()).isEqualTo(rows);
        assertThat(session.execute("SELECT count(*) FROM " + spec.quotedTable())
                        .one()
                        .getLong(0))
                .isEqualTo(rows);
        assertThat(observed.mostHeld.get())
                .as("one bulk batch and the page being read, at most")
                .isPositive()
                .isLessThanOrEqualTo(bulkBatch + PAGE);
    }

    @Test
    void aCassandraRecoveryByKeysChoosesItsPathByTheWholeRowsTheLogHoldsForThem() {
        DatasetSpec spec = cassandraTable();
        List<Long> deleted =
                LongStream.rangeClosed(1, BULK_THRESHOLD + 5).boxed().toList();
        for (long id : deleted) {
            session.execute(
                    session.prepare("INSERT INTO " + spec.quotedTable() + " (id, name) VALUES (?, ?) USING TIMESTAMP ?")
                            .bind(id, "name-" + id, WRITTEN));
        }
        logAndDelete(spec, RunId.of(unique("run")), deleted, Instant.now());
        RecoveryRunner runner = runner(new Observed(), bulk);
        List<Map<String, Object>> allKeys = LongStream.rangeClosed(1, BULK_THRESHOLD + 15)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
        // as many keys as the threshold, but fewer of them deleted
        List<Map<String, Object>> mostlyNeverDeleted = LongStream.rangeClosed(16, BULK_THRESHOLD + 15)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();

        RecoveryStore.RequestView large = recover(runner, new RecoveryScope.ByKeys(spec.name(), allKeys), spec, true);
        RecoveryStore.RequestView small =
                recover(runner, new RecoveryScope.ByKeys(spec.name(), mostlyNeverDeleted), spec, true);

        assertThat(large.status()).as(large.failure()).isEqualTo(RecoveryStore.Status.COMPLETED);
        assertThat(large.path())
                .as("the whole rows in the log reach the bulk threshold")
                .isEqualTo(RestorePath.BULK);
        assertThat(large.recordsTotal()).isEqualTo(allKeys.size());
        assertThat(large.restored()).as("restorable, in a dry-run").isEqualTo(deleted.size());
        assertThat(large.notInLog()).isEqualTo(10);
        assertThat(small.path())
                .as("%d keys, %d of them deleted", mostlyNeverDeleted.size(), deleted.size() - 15)
                .isEqualTo(RestorePath.ONLINE);
        assertThat(small.recordsTotal()).isEqualTo(mostlyNeverDeleted.size());
        assertThat(small.restored()).isEqualTo(deleted.size() - 15);
    }

    // --- the runner on an observed log session and store

    /** What the log session returned and the store settled. */
    private static final class Observed {
        final AtomicLong recordsRead = new AtomicLong();
        final AtomicLong settled = new AtomicLong();
        final AtomicLong mostHeld = new AtomicLong();
        final AtomicInteger keyStatements = new AtomicInteger();

        void reset() {
            recordsRead.set(0);
            settled.set(0);
            mostHeld.set(0);
            keyStatements.set(0);
        }
    }

    private RecoveryRunner runner(Observed observed, BulkRestores bulkRestores) {
        CqlSession counting = (CqlSession) Proxy.newProxyInstance(
                CqlSession.class.getClassLoader(), new Class<?>[] {CqlSession.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(session, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("execute") && args != null && args[0] instanceof BoundStatement bound) {
                        String query = bound.getPreparedStatement().getQuery();
                        if (query.contains("payload")
                                && (query.contains("records_by_run") || query.contains("records_by_time"))) {
                            observed.recordsRead.addAndGet(((ResultSet) result).getAvailableWithoutFetching());
                        }
                        if (query.contains("records_by_key") || query.contains("purged_keys")) {
                            observed.keyStatements.incrementAndGet();
                        }
                    }
                    return result;
                });
        Clock clock = Clock.systemUTC();
        LogReader reader =
                new LogReader(counting, new DatasetKeys(counting, PayloadCipher.masterKey(masterKey), clock), json);
        RecoveryStore store = new RecoveryStore(jdbc, json) {
            @Override
            public void recorded(UUID id, List<RecoveryItem> items) {
                observed.mostHeld.accumulateAndGet(observed.recordsRead.get() - observed.settled.get(), Math::max);
                observed.settled.addAndGet(items.size());
                super.recorded(id, items);
            }
        };
        return new RecoveryRunner(
                () -> reader,
                adapters,
                store,
                new RestoreThrottle(100_000),
                bulkRestores,
                retained,
                clock,
                new RecoveryRunner.Sizes(PAGE, 100),
                frozenSpecs,
                json);
    }

    private RecoveryStore.RequestView recover(
            RecoveryRunner runner, RecoveryScope scope, DatasetSpec spec, boolean dryRun) {
        UUID id = store().create("recovery", "paged recovery test", scope, spec.name(), spec, dryRun, Instant.now());
        runner.run(id, dryRun);
        return store().find(id).orElseThrow();
    }

    private RecoveryStore store() {
        return new RecoveryStore(jdbc, json);
    }

    /** Outcome by record id. */
    private Map<String, String> outcomes(UUID id) {
        Map<String, String> byRecord = new HashMap<>();
        store().outcomes(id, 5_000, 0)
                .forEach(item -> byRecord.put(item.recordId(), item.outcome().name()));
        return byRecord;
    }

    // --- fixtures

    private DatasetSpec postgresTable() {
        String table = unique("paged");
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS recovery_it");
        jdbc.execute("CREATE TABLE recovery_it." + table + " (id bigint PRIMARY KEY, name text, balance numeric(12,2),"
                + " updated_at timestamptz NOT NULL)");
        return spec(StoreKind.POSTGRES, POSTGRES, table, ConditionalColumn.timestamp("updated_at"));
    }

    /** {@link #ORDERS_WITH_ITEMS}, created empty (its hierarchy is declared on the connection by the test support). */
    private DatasetSpec ordersWithItems() {
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS recovery_it");
        jdbc.execute("DROP TABLE IF EXISTS recovery_it.orders_with_items_items, recovery_it.orders_with_items");
        jdbc.execute("CREATE TABLE recovery_it.orders_with_items (id bigint PRIMARY KEY, name text,"
                + " updated_at timestamptz NOT NULL)");
        jdbc.execute("CREATE TABLE recovery_it.orders_with_items_items (item_id bigint PRIMARY KEY,"
                + " order_id bigint NOT NULL REFERENCES recovery_it.orders_with_items (id), sku text,"
                + " updated_at timestamptz NOT NULL)");
        return DatasetSpec.builder()
                .name(ORDERS_WITH_ITEMS)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef(POSTGRES)
                .namespace("recovery_it")
                .table("orders_with_items")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(new BackupLocation("backups/recovery-it/", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("erasure-tests")
                .build();
    }

    private DatasetSpec cassandraTable() {
        String table = unique("paged_bulk");
        session.execute("CREATE KEYSPACE IF NOT EXISTS recovery_it WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': 1}");
        session.execute("CREATE TABLE recovery_it." + table + " (id bigint PRIMARY KEY, name text)");
        return spec(StoreKind.CASSANDRA, CASSANDRA, table, ConditionalColumn.none());
    }

    private static DatasetSpec spec(StoreKind kind, String connection, String table, ConditionalColumn conditional) {
        return DatasetSpec.builder()
                .name(table.replace('_', '-'))
                .storeKind(kind)
                .connectionRef(connection)
                .namespace("recovery_it")
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

    /** Rows {@code ids}, each named {@code name} and its id, written before the cut-off. */
    private void insert(DatasetSpec spec, List<Long> ids, String name) {
        OffsetDateTime updated = OffsetDateTime.ofInstant(CutoffTimestamp.fromMicros(WRITTEN), ZoneOffset.UTC);
        jdbc.batchUpdate(
                "INSERT INTO recovery_it." + spec.table()
                        + " (id, name, balance, updated_at) VALUES (?, ?, ?::numeric, ?)",
                ids.stream()
                        .map(id -> new Object[] {id, name + id, id + ".25", updated})
                        .toList());
    }

    private List<Map<String, Object>> table(DatasetSpec spec) {
        return jdbc.queryForList(
                "SELECT id, name, balance, updated_at FROM recovery_it." + spec.table() + " ORDER BY id");
    }

    private long count(DatasetSpec spec) {
        return jdbc.queryForObject("SELECT count(*) FROM recovery_it." + spec.table(), Long.class);
    }

    /** What the deletion service does: read the live rows, log them, then delete at the cut-off. */
    private void logAndDelete(DatasetSpec spec, RunId run, List<Long> ids, Instant deletedAt) {
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        int batch = adapter.capabilities().maxBatch();
        for (int from = 0; from < ids.size(); from += batch) {
            List<Map<String, Object>> keys = ids.subList(from, Math.min(ids.size(), from + batch)).stream()
                    .<Map<String, Object>>map(id -> Map.of("id", id))
                    .toList();
            List<LiveRow> rows = adapter.readRows(spec, keys);
            // each key's row, and on a dataset with a child table its child rows (keyed with the table's name too)
            assertThat(rows.stream().filter(row -> row.key().keySet().equals(Set.of("id"))))
                    .hasSize(keys.size());
            DeletionTask task = DeletionTask.forRun(run, spec, keys, CUTOFF);
            logUnder(
                    task,
                    rows.stream()
                            .map(row -> DeletionRecord.of(
                                    task, "batch-" + task.taskId(), row.key(), row.columns(), deletedAt))
                            // through JSON, as the records travel on the topic
                            .map(record -> json.readValue(json.writeValueAsString(record), DeletionRecord.class))
                            .toList());
            adapter.executeDelete(adapter.planDelete(new DeleteBatch(spec, "batch-" + task.taskId(), CUTOFF, keys)));
            assertThat(adapter.checkLiveState(spec, keys)).noneMatch(state -> state.present());
        }
    }
}
