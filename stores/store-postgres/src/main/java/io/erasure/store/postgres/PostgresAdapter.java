package io.erasure.store.postgres;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.postgres.load.PostgresLoad;
import io.erasure.store.postgres.lookup.IdentifierIndex;
import io.erasure.store.postgres.plan.ClearPlanner;
import io.erasure.store.postgres.plan.DeleteExecutor;
import io.erasure.store.postgres.plan.DeletePlanner;
import io.erasure.store.postgres.read.RowReader;
import io.erasure.store.postgres.restore.RowRestorer;
import io.erasure.store.postgres.schema.ClearableColumns;
import io.erasure.store.postgres.schema.CutoffGuard;
import io.erasure.store.postgres.schema.DatasetCheck;
import io.erasure.store.postgres.sql.DatasetSql;
import io.erasure.store.postgres.sql.SqlFailures;
import io.erasure.store.postgres.tree.Hierarchies;
import io.erasure.store.postgres.tree.Hierarchy;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.IdentifierLookup;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * The PostgreSQL store adapter.
 *
 * <h2>Deletes</h2>
 * A plan reads, in one query, whether each key's row exists and may go; the keys to delete are cut into statements
 * of {@code batch-size} keys, each its own short transaction, so row locks are held briefly. Each statement deletes
 * only rows still at or before the cut-off, by the dataset's conditional column:
 * <ul>
 *   <li>TIMESTAMP ({@code updated_at}): {@code updated_at <= cut-off}; a row written after it, even between plan
 *       and execute, survives. A NULL updated_at is never "at or before", so such a row is kept.</li>
 *   <li>VERSION: a version number cannot tell whether a write came after the cut-off; the plan reads the current
 *       versions and the delete requires {@code version = <version read at plan time>}. A row updated since the plan
 *       survives; one updated between the cut-off and the plan does not. The deletion service must therefore plan
 *       <em>before</em> reading the rows it logs: the logged version is then the planned one or newer, and a newer one
 *       makes the delete a no-op, so no unlogged content is ever deleted.</li>
 *   <li>An explicit {@link ConditionalColumn#none() none}: deletes are unconditional: a row updated after the
 *       cut-off is deleted too. This is the owner's registered choice; {@link #checkDataset} accepts it.</li>
 * </ul>
 *
 * <h2>Subtrees and child tables</h2>
 * A dataset may have a {@link Hierarchy} (given to the constructor, or in the connection settings, see
 * {@link Hierarchies}): its table may be a tree, and child tables may hold rows that belong to its rows. A key's
 * delete then removes its row, its subtree and all their child rows in one statement, children explicitly rather
 * than by {@code ON DELETE CASCADE} (a cascade would delete rows regardless of their own write time); foreign keys
 * are checked at the end of that statement. If any of those rows was written after the cut-off, none of them is
 * deleted. {@link #readRows} returns all of them, so the deletion service logs them all before the delete;
 * {@link DeleteOutcome} counts keys (a key is deleted when its own row is).
 *
 * <h2>Anonymisation</h2>
 * A batch with clear columns keeps its rows and sets those columns to NULL, under the same cut-off condition as a
 * delete, leaving updated_at as it is ({@link io.erasure.store.postgres.sql.ClearColumnsSql} says why); the columns
 * must exist and be nullable ({@link ClearableColumns}). The restore of such a record puts back only its columns,
 * only where they are still NULL and the row was not written after the cut-off.
 *
 * <h2>Lookups</h2>
 * {@link IdentifierLookup}: the keys of an identifier's rows, only through an index that starts with the identifier
 * column ({@link IdentifierIndex}).
 *
 * <h2>Errors</h2>
 * See {@link SqlFailures} for which SQL states are retriable.
 */
public final class PostgresAdapter implements StoreAdapter, IdentifierLookup {

    /** Keys per call. */
    public static final int MAX_BATCH = 1_000;

    private static final System.Logger LOG = System.getLogger(PostgresAdapter.class.getName());
    private static final StoreCapabilities CAPABILITIES = new StoreCapabilities(false, false, false, true, false, MAX_BATCH,
            true, true);

    private final DataSource dataSource;
    private final Hierarchies hierarchies;
    private final DeletePlanner planner;
    private final ClearPlanner clearPlanner;
    private final IdentifierIndex identifierIndex;
    private final DeleteExecutor executor = new DeleteExecutor();
    private final PostgresLoad load;
    private final Map<DatasetSpec, DatasetSql> datasets = new ConcurrentHashMap<>();

    public PostgresAdapter(DataSource dataSource, PostgresSettings settings, Hierarchies hierarchies, Clock clock) {
        this.dataSource = dataSource;
        this.hierarchies = hierarchies;
        this.planner = new DeletePlanner(settings.batchSize());
        this.clearPlanner = new ClearPlanner(settings.batchSize());
        this.identifierIndex = new IdentifierIndex(clock);
        this.load = new PostgresLoad(settings.latencyLimitMs(), settings.lockWaitLimit(), clock, System::nanoTime);
    }

    @Override
    public StoreCapabilities capabilities() {
        return CAPABILITIES;
    }

    /**
     * Checks the table, its primary key, the identifier and conditional columns (timestamp/timestamptz for
     * TIMESTAMP, smallint/integer/bigint for VERSION; an explicit none is accepted and makes deletes unconditional),
     * the declared hierarchy, and that no undeclared table has a foreign key to the dataset's tables.
     */
    @Override
    public void checkDataset(DatasetSpec spec) {
        DatasetSql sql = check(spec);
        if (sql.shape().guard().kind() == CutoffGuard.Kind.NONE) {
            LOG.log(System.Logger.Level.WARNING, "dataset ''{0}'' ({1}) is registered without a conditional column: its deletes"
                    + " are unconditional, so a row updated after the cut-off is deleted too", spec.name(), spec.quotedTable());
        }
        datasets.put(spec, sql);
    }

    @Override
    public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
        DatasetSql sql = sqlFor(spec, keys);
        return call("read rows of dataset '" + spec.name() + "'", c -> RowReader.readRows(c, sql, keys));
    }

    @Override
    public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
        DatasetSql sql = sqlFor(spec, keys);
        return call("check live state of dataset '" + spec.name() + "'", c -> RowReader.checkLiveState(c, sql, keys));
    }

    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        DatasetSql sql = sqlFor(batch.spec(), batch.keys());
        if (batch.anonymising()) {
            DatasetSql current = ClearableColumns.refusal(sql.shape(), batch.clearColumns()).isEmpty()
                    ? sql : recheck(batch.spec());
            return call("plan anonymisation of dataset '" + batch.spec().name() + "' batch " + batch.batchId(),
                    c -> clearPlanner.plan(c, current, batch));
        }
        return call("plan delete of dataset '" + batch.spec().name() + "' batch " + batch.batchId(),
                c -> planner.plan(c, sql, batch));
    }

    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        DatasetSql sql = sqlFor(plan.batch().spec(), plan.batch().keys());
        return call("delete from dataset '" + plan.batch().spec().name() + "' batch " + plan.batch().batchId(),
                c -> executor.execute(c, sql, plan));
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        if (records.size() > MAX_BATCH) {
            throw new IllegalArgumentException("restore takes at most " + MAX_BATCH + " records per call, got " + records.size());
        }
        DatasetSql sql = sqlFor(spec, List.of());
        return call("restore rows of dataset '" + spec.name() + "'", c -> RowRestorer.restore(c, sql, records));
    }

    @Override
    public String lookupRefusal(DatasetSpec spec) {
        DatasetSql sql = sqlFor(spec, List.of());
        return call("check the identifier index of dataset '" + spec.name() + "'", c -> identifierIndex.refusal(c, sql.shape()));
    }

    /** @throws IllegalArgumentException when {@link #lookupRefusal} refuses, or for empty, null or too many identifiers */
    @Override
    public List<Map<String, Object>> keysByIdentifier(DatasetSpec spec, List<Object> identifiers, int limit) {
        if (identifiers == null || identifiers.isEmpty() || identifiers.size() > MAX_BATCH
                || identifiers.stream().anyMatch(java.util.Objects::isNull)) {
            throw new IllegalArgumentException("a lookup takes 1 to " + MAX_BATCH + " identifiers, none of them null");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("a lookup's limit must be at least 1, got " + limit);
        }
        String refusal = lookupRefusal(spec);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        DatasetSql sql = sqlFor(spec, List.of());
        return call("look up keys of dataset '" + spec.name() + "' by " + spec.identifierColumn(),
                c -> identifierIndex.keys(c, sql.shape(), identifiers, limit));
    }

    @Override
    public LoadSignal loadSignal() {
        return call("measure load", load::measure);
    }

    @Override
    public void close() {
        if (dataSource instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the PostgreSQL pool failed", e);
            }
        }
    }

    private DatasetSql sqlFor(DatasetSpec spec, List<Map<String, Object>> keys) {
        if (keys.size() > MAX_BATCH) {
            throw new IllegalArgumentException("at most " + MAX_BATCH + " keys per call, got " + keys.size());
        }
        for (int i = 0; i < keys.size(); i++) {
            spec.keyColumns().requireFullKey("keys[" + i + "]", keys.get(i));
        }
        // a spec checked by another replica is checked here on first use
        return datasets.computeIfAbsent(spec, this::check);
    }

    /** The schema may have changed since it was cached (the owner ran the fix a refusal named): read it again. */
    private DatasetSql recheck(DatasetSpec spec) {
        DatasetSql fresh = check(spec);
        datasets.put(spec, fresh);
        return fresh;
    }

    private DatasetSql check(DatasetSpec spec) {
        Hierarchy hierarchy = hierarchies.of(spec.name());
        return call("check dataset '" + spec.name() + "'", c -> new DatasetSql(DatasetCheck.resolve(c, spec, hierarchy)));
    }

    private <T> T call(String action, SqlWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw SqlFailures.translate(action, e);
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }
}
