package io.erasure.store.postgres;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.postgres.load.PostgresLoad;
import io.erasure.store.postgres.lookup.IdentifierIndex;
import io.erasure.store.postgres.plan.ClearPlanner;
import io.erasure.store.postgres.plan.DeleteExecutor;
import io.erasure.store.postgres.plan.DeletePlanner;
import io.erasure.store.postgres.plan.StaleSchema;
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
import io.erasure.store.spi.StoreCapabilities.Capability;
import io.erasure.store.spi.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 *   <li>An explicit {@link ConditionalColumn#none() none}: deletes are not conditioned on the cut-off: a row updated
 *       after the cut-off but before the plan is deleted too. This is the owner's registered choice;
 *       {@link #checkDataset} accepts it.</li>
 * </ul>
 * Whatever the guard, a delete also removes only the row versions its plan found (by {@code xmin}, for the key's row,
 * its subtree and its child rows; see {@link DatasetSql}): a row written after the plan, so after or during the read
 * for the log, keeps its key's rows, counted as kept. Nothing unlogged is deleted after a long wait between the read
 * and the delete (the log's acknowledgement, a kill switch, the throttle).
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
 * <h2>Schema changes</h2>
 * The checked shape of a dataset is never trusted for longer than the catalog stays as it was: every call first
 * compares a digest of the catalog rows the check read ({@link io.erasure.store.postgres.schema.SchemaVersion}) and
 * checks the dataset again when it changed, so a cascading foreign key added after the service started is refused
 * as at the first check, and a column added later is read, logged and restored. A delete runs in a transaction that
 * first locks its tables against DDL and then deletes only if the catalog is still at the version the batch was
 * planned at; otherwise it deletes nothing and is either refused (the dataset is no longer safe) or retried from the
 * plan ({@link StoreException.Retriable}), so the rows are read and logged under the new schema.
 *
 * <h2>Errors</h2>
 * See {@link SqlFailures} for which SQL states are retriable.
 */
public final class PostgresAdapter implements StoreAdapter, IdentifierLookup {

    /** Keys per call. */
    public static final int MAX_BATCH = 1_000;

    private static final System.Logger LOG = System.getLogger(PostgresAdapter.class.getName());
    private static final StoreCapabilities CAPABILITIES = StoreCapabilities.of(
            MAX_BATCH, Capability.RESTORE, Capability.CUTOFF_CONDITIONED, Capability.CLEAR_COLUMNS);

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
        this.load = new PostgresLoad(
                settings.latencyLimitMs(),
                settings.lockWaitLimit(),
                settings.activeSessionLimit(),
                settings.cpus(),
                clock,
                System::nanoTime);
    }

    @Override
    public StoreCapabilities capabilities() {
        return CAPABILITIES;
    }

    /**
     * Checks the table, its primary key, the identifier and conditional columns (timestamp/timestamptz for
     * TIMESTAMP, smallint/integer/bigint for VERSION; an explicit none is accepted and makes deletes independent of the
     * cut-off), the declared hierarchy, and that no undeclared table has a foreign key to the dataset's tables.
     */
    @Override
    public void checkDataset(DatasetSpec spec) {
        DatasetSql sql = call("check dataset '" + spec.name() + "'", c -> recheck(c, spec));
        if (sql.shape().guard().kind() == CutoffGuard.Kind.NONE) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "dataset ''{0}'' ({1}) is registered without a conditional column: its deletes"
                            + " are not conditioned on the cut-off, so a row updated after it (but before the plan) is"
                            + " deleted too",
                    spec.name(),
                    spec.quotedTable());
        }
        if (sql.shape().nodesHaveOwnIdentifier()
                && sql.shape().table().primaryKey().contains(spec.identifierColumn())) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "dataset ''{0}'' is a tree whose identifier column ''{1}'' is its primary key,"
                            + " and its nodes have their own identifier (the default):"
                            + " a subtree delete removes only the key''s row and keeps every node under it;"
                            + " if the nodes belong to their key, set hierarchy.{0}.tree.node-identifier = inherited",
                    spec.name(),
                    spec.identifierColumn());
        }
    }

    @Override
    public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
        return onDataset(
                spec, keys, "read rows of dataset '" + spec.name() + "'", (c, sql) -> RowReader.readRows(c, sql, keys));
    }

    @Override
    public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
        return onDataset(
                spec,
                keys,
                "check live state of dataset '" + spec.name() + "'",
                (c, sql) -> RowReader.checkLiveState(c, sql, keys));
    }

    /**
     * Two, whatever the key count (up to {@link #MAX_BATCH}): the whole key set is read in one statement (the keys
     * go in as one JSON parameter), after the one catalog query that checks the dataset's shape is still current.
     */
    @Override
    public int readStatements(DatasetSpec spec, int keyCount) {
        return keyCount == 0 ? 0 : 2;
    }

    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        if (batch.anonymising()) {
            return onDataset(
                    batch.spec(),
                    batch.keys(),
                    "plan anonymisation of dataset '" + batch.spec().name() + "' batch " + batch.batchId(),
                    (c, sql) -> clearPlanner.plan(c, sql, batch));
        }
        return onDataset(
                batch.spec(),
                batch.keys(),
                "plan delete of dataset '" + batch.spec().name() + "' batch " + batch.batchId(),
                (c, sql) -> planner.plan(c, sql, batch));
    }

    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        DatasetSpec spec = plan.batch().spec();
        String action = "delete from dataset '" + spec.name() + "' batch "
                + plan.batch().batchId();
        return onDataset(spec, plan.batch().keys(), action, (c, sql) -> {
            try {
                return executor.execute(c, sql, plan);
            } catch (StaleSchema stale) {
                // refused now if the change made the dataset unsafe (as at its first check); otherwise plan, read, log
                // again
                recheck(c, spec);
                throw new StoreException.Retriable(
                        action + ": " + stale.getMessage() + "; nothing was deleted by this"
                                + " statement, the batch must be planned, read and logged again",
                        stale);
            }
        });
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        if (records.size() > MAX_BATCH) {
            throw new IllegalArgumentException(
                    "restore takes at most " + MAX_BATCH + " records per call, got " + records.size());
        }
        return onDataset(
                spec,
                List.of(),
                "restore rows of dataset '" + spec.name() + "'",
                (c, sql) -> RowRestorer.restore(c, sql, records));
    }

    @Override
    public Optional<String> lookupRefusal(DatasetSpec spec) {
        return Optional.ofNullable(onDataset(
                spec,
                List.of(),
                "check the identifier index of dataset '" + spec.name() + "'",
                (c, sql) -> identifierIndex.refusal(c, sql.shape())));
    }

    /**
     * @throws IllegalArgumentException when {@link #lookupRefusal} refuses, or for empty, null or too many identifiers
     */
    @Override
    public List<Map<String, Object>> keysByIdentifier(DatasetSpec spec, List<Object> identifiers, int limit) {
        if (identifiers == null
                || identifiers.isEmpty()
                || identifiers.size() > MAX_BATCH
                || identifiers.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("a lookup takes 1 to " + MAX_BATCH + " identifiers, none of them null");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("a lookup's limit must be at least 1, got " + limit);
        }
        Optional<String> refusal = lookupRefusal(spec);
        if (refusal.isPresent()) {
            throw new IllegalArgumentException(refusal.get());
        }
        return onDataset(
                spec,
                List.of(),
                "look up keys of dataset '" + spec.name() + "' by " + spec.identifierColumn(),
                (c, sql) -> identifierIndex.keys(c, sql.shape(), identifiers, limit));
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

    /**
     * Runs {@code work} with the dataset's statements as of the catalog now: the shape checked last is used only while
     * the catalog is still at its {@link io.erasure.store.postgres.schema.SchemaVersion} (one cheap query); otherwise
     * the dataset is checked again first, as at its first check. An error that says the schema is not what the shape
     * said (an undefined column or table) forgets the shape, so the next call checks again.
     */
    private <T> T onDataset(DatasetSpec spec, List<Map<String, Object>> keys, String action, DatasetWork<T> work) {
        if (keys.size() > MAX_BATCH) {
            throw new IllegalArgumentException("at most " + MAX_BATCH + " keys per call, got " + keys.size());
        }
        for (int i = 0; i < keys.size(); i++) {
            spec.keyColumns().requireFullKey("keys[" + i + "]", keys.get(i));
        }
        return call(action, c -> {
            try {
                return work.run(c, current(c, spec));
            } catch (SQLException e) {
                if (e.getSQLState() != null
                        && (e.getSQLState().startsWith("42") || e.getSQLState().startsWith("0A"))) {
                    datasets.remove(spec);
                }
                throw e;
            }
        });
    }

    private DatasetSql current(Connection connection, DatasetSpec spec) throws SQLException {
        DatasetSql cached = datasets.get(spec);
        if (cached != null && cached.shape().schema().isCurrent(connection)) {
            return cached;
        }
        // first use here (checked by another replica), or the schema changed since: check it as at registration
        return recheck(connection, spec);
    }

    /** Checks the dataset in one snapshot of the catalog and remembers the result; a refusal forgets it. */
    private DatasetSql recheck(Connection connection, DatasetSpec spec) throws SQLException {
        Hierarchy hierarchy = hierarchies.of(spec.name());
        boolean autoCommit = connection.getAutoCommit();
        int isolation = connection.getTransactionIsolation();
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            DatasetSql fresh = new DatasetSql(DatasetCheck.resolve(connection, spec, hierarchy));
            datasets.put(spec, fresh);
            return fresh;
        } catch (StoreException.Fatal refused) {
            datasets.remove(spec);
            throw refused;
        } finally {
            connection.rollback();
            connection.setTransactionIsolation(isolation);
            connection.setAutoCommit(autoCommit);
        }
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

    @FunctionalInterface
    private interface DatasetWork<T> {
        T run(Connection connection, DatasetSql sql) throws SQLException;
    }
}
