package io.erasure.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.cassandra.guard.ClusterState;
import io.erasure.store.cassandra.guard.ClusterWatch;
import io.erasure.store.cassandra.guard.Decision;
import io.erasure.store.cassandra.guard.GcGraceGuard;
import io.erasure.store.cassandra.guard.NodeDowntimes;
import io.erasure.store.cassandra.guard.TableSettings;
import io.erasure.store.cassandra.guard.TableSettingsReader;
import io.erasure.store.cassandra.jmx.NodeJmx;
import io.erasure.store.cassandra.load.LoadProbe;
import io.erasure.store.cassandra.lookup.IdentifierRoute;
import io.erasure.store.cassandra.lookup.KeyFinder;
import io.erasure.store.cassandra.plan.AnonymisingPlanner;
import io.erasure.store.cassandra.plan.DeleteExecutor;
import io.erasure.store.cassandra.plan.DeletePlanner;
import io.erasure.store.cassandra.plan.PartitionTombstones;
import io.erasure.store.cassandra.purge.PurgeTracker;
import io.erasure.store.cassandra.purge.SSTableTombstones;
import io.erasure.store.cassandra.read.LiveReads;
import io.erasure.store.cassandra.restore.Restorer;
import io.erasure.store.cassandra.schema.TableCatalog;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.IdentifierLookup;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.PurgeStatus;
import io.erasure.store.spi.PurgeTracking;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import io.erasure.store.spi.StoreCapabilities.Capability;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Cassandra store adapter: deletes at the cut-off ({@code USING TIMESTAMP}), a partition delete
 * only where the partition holds nothing but the batch's rows, restores at cut-off + 1 µs with the
 * remaining TTLs. Keys and values travel in JSON form and are encoded by Cassandra itself
 * ({@code fromJson}, {@code toJson}, {@code INSERT JSON}). Thread-safe; owns its session.
 *
 * <p>Every {@link #planDelete} first asks the {@link GcGraceGuard} whether deleting can resurrect rows (a replica
 * down for longer than {@code gc_grace_seconds}, {@code gc_grace_seconds = 0} with replicas): it refuses with
 * {@link StoreException.Fatal} and the reason, or carries the guard's warnings in {@link DeletePlan#warnings()}.
 * {@link #purgeStatus} tells when a run's tombstones become purgeable and whether compaction removed them.
 *
 * <p>Forward deletion's extras: {@link #keysByIdentifier} finds the rows of an identifier that is the partition key
 * or an indexed column, and a batch with clear columns is anonymised ({@link AnonymisingPlanner}): those cells are
 * deleted at the cut-off and the rows kept, and their records restore just those cells.
 */
public final class CassandraStoreAdapter implements StoreAdapter, PurgeTracking, IdentifierLookup {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraStoreAdapter.class);

    /** Keys per call: well under a partition probe's page and the point reads one call should make. */
    public static final int MAX_BATCH = 500;

    /** Identifiers per lookup call: those of one lookup task. */
    public static final int MAX_LOOKUP_IDENTIFIERS = DeletionTask.MAX_KEYS;

    private static final StoreCapabilities CAPABILITIES = StoreCapabilities.of(
            MAX_BATCH,
            Capability.PARTITION_DELETE,
            Capability.ROW_TIMESTAMPS,
            Capability.CELL_TTL,
            Capability.RESTORE,
            Capability.CUTOFF_CONDITIONED,
            Capability.CLEAR_COLUMNS);

    private final CqlRunner cql;
    private final TableCatalog catalog;
    private final LiveReads reads;
    private final DeletePlanner planner;
    private final AnonymisingPlanner anonymisingPlanner;
    private final IdentifierRoute identifierRoute;
    private final KeyFinder keyFinder;
    private final DeleteExecutor executor;
    private final Restorer restorer;
    private final LoadProbe load;
    private final Optional<NodeJmx> jmx;
    private final ClusterWatch cluster;
    private final TableSettingsReader tableSettings;
    private final GcGraceGuard guard;
    private final PurgeTracker purges;
    private final AtomicBoolean closed = new AtomicBoolean();

    CassandraStoreAdapter(
            CqlRunner cql, CassandraSettings settings, Optional<NodeJmx> jmx, NodeDowntimes downtimes, Clock clock) {
        this.cql = cql;
        this.catalog = new TableCatalog(cql.session(), settings.connectionRef());
        this.reads = new LiveReads(cql, settings.maxKeysPerRead());
        this.planner = new DeletePlanner(cql, reads);
        this.anonymisingPlanner = new AnonymisingPlanner(reads);
        this.identifierRoute = new IdentifierRoute(cql);
        this.keyFinder = new KeyFinder(cql);
        this.executor = new DeleteExecutor(cql, settings.maxRowTombstonesPerPartition());
        this.restorer = new Restorer(cql, reads, clock);
        this.jmx = jmx;
        this.load = new LoadProbe(cql, settings.localDatacenter(), settings.loadLimits(), jmx, clock);
        this.cluster = new ClusterWatch(cql, downtimes, jmx, clock);
        this.tableSettings = new TableSettingsReader(cql, clock);
        this.guard = new GcGraceGuard(clock);
        this.purges = new PurgeTracker(tableSettings, jmx.map(SSTableTombstones::new), settings.connectionRef(), clock);
    }

    @Override
    public StoreCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public void checkDataset(DatasetSpec spec) {
        catalog.check(spec);
    }

    @Override
    public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
        return reads.rows(shape(spec, keys), keys);
    }

    @Override
    public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
        return reads.states(shape(spec, keys), keys);
    }

    /**
     * The most statements one {@link #readRows} or {@link #checkLiveState} call of {@code keyCount} keys sends
     * ({@link LiveReads#statements}): {@code ceil(keyCount / max-keys-per-read)} for a table keyed by one
     * partition column (an integer, decimal, text, UUID, blob or boolean; not a timestamp) without clustering
     * columns, else {@code keyCount}. The caller charges before it reads and passes only the count, so this is an upper
     * bound for keys in as many partitions as keys: keys of one partition share statements, but the budget is
     * never charged less than what is sent.
     */
    @Override
    public int readStatements(DatasetSpec spec, int keyCount) {
        return reads.statements(shape(spec, List.of()), keyCount);
    }

    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        TableShape shape = shape(batch.spec(), batch.keys());
        ClusterState nodes = cluster.current();
        TableSettings table = tableSettings.read(batch.spec());
        // refuse before reading: with a replica long gone, the reads themselves may fail as merely retriable
        refuseIfUnsafe(guard.decide(nodes, table, 0), batch);
        DeletePlan plan = batch.anonymising() ? anonymisingPlanner.plan(shape, batch) : planner.plan(shape, batch);
        Decision decision = guard.decide(nodes, table, PartitionTombstones.mostInOnePartition(shape, plan));
        refuseIfUnsafe(decision, batch);
        if (decision.verdict() == Decision.Verdict.WARN) {
            LOG.warn("deleting batch {} from {} despite: {}", batch.batchId(), table.name(), decision.reason());
            plan = plan.withWarnings(decision.reasons());
        }
        return plan;
    }

    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        return executor.execute(shape(plan.batch().spec(), plan.batch().keys()), plan);
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        if (records.size() > MAX_BATCH) {
            throw new IllegalArgumentException(
                    "at most " + MAX_BATCH + " records per restore call, got " + records.size());
        }
        return restorer.restore(catalog.shape(spec), records);
    }

    /**
     * Empty when {@code spec}'s identifier column is the table's whole partition key or has a secondary or SAI
     * index that answers {@code column = ?}; otherwise why not, naming the table, the column and the index to
     * create ({@link IdentifierRoute}). Reads the table's indexes from {@code system_schema} each time.
     */
    @Override
    public Optional<String> lookupRefusal(DatasetSpec spec) {
        shape(spec, List.of());
        return Optional.ofNullable(identifierRoute.refusal(spec));
    }

    /**
     * The full keys of the rows whose identifier column equals one of {@code identifiers}, found by partition or
     * indexed reads only ({@link KeyFinder}); refuses with {@link IllegalArgumentException} where
     * {@link #lookupRefusal} refuses, so a caller that skipped it cannot make the adapter scan a table.
     */
    @Override
    public List<Map<String, Object>> keysByIdentifier(DatasetSpec spec, List<Object> identifiers, int limit) {
        TableShape shape = shape(spec, List.of());
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        if (identifiers.size() > MAX_LOOKUP_IDENTIFIERS) {
            throw new IllegalArgumentException("at most " + MAX_LOOKUP_IDENTIFIERS + " identifiers per lookup, got "
                    + identifiers.size() + "; split them");
        }
        String refusal = identifierRoute.refusal(spec);
        if (refusal != null) {
            throw new IllegalArgumentException("cannot look up " + spec.name() + " by identifier: " + refusal);
        }
        return identifiers.isEmpty() ? List.of() : keyFinder.keys(shape, identifiers, limit);
    }

    @Override
    public LoadSignal loadSignal() {
        return load.measure();
    }

    /** The cluster's nodes and their state as the gc_grace guard sees them (read at most a few seconds ago). */
    public ClusterState clusterState() {
        requireOpen();
        return cluster.current();
    }

    /** {@code spec}'s table's gc_grace_seconds, replication, last known repair and tombstone warning threshold. */
    public TableSettings tableSettings(DatasetSpec spec) {
        shape(spec, List.of());
        return tableSettings.read(spec);
    }

    /**
     * When the tombstones written into {@code spec}'s table by a run whose last delete was executed at
     * {@code deletedAt} become purgeable, and whether compaction removed them (needs {@code jmx-port}); see
     * {@link PurgeTracker}.
     */
    @Override
    public PurgeStatus purgeStatus(DatasetSpec spec, Instant deletedAt) {
        shape(spec, List.of());
        return purges.status(spec, deletedAt);
    }

    /** The checked shape of {@code spec}'s table: key and regular column types (for the bulk restore path). */
    public TableShape tableShape(DatasetSpec spec) {
        return shape(spec, List.of());
    }

    /**
     * The driver's metadata of {@code spec}'s table as the cluster describes it now (the bulk restore path
     * builds its SSTable schema from it).
     */
    public TableMetadata tableMetadata(DatasetSpec spec) {
        shape(spec, List.of());
        return cql.session()
                .getMetadata()
                .getKeyspace(CqlIdentifier.fromInternal(spec.namespace()))
                .flatMap(keyspace -> keyspace.getTable(CqlIdentifier.fromInternal(spec.table())))
                .orElseThrow(
                        () -> new StoreException.Fatal("table " + spec.quotedTable() + " is gone; recreate it first"));
    }

    /** The consistency level every read, delete and restore of this adapter uses. */
    public ConsistencyLevel consistency() {
        return cql.consistency();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            jmx.ifPresent(NodeJmx::close);
            cql.session().close();
        }
    }

    private static void refuseIfUnsafe(Decision decision, DeleteBatch batch) {
        if (decision.verdict() == Decision.Verdict.REFUSE) {
            throw new StoreException.Fatal("refusing to delete batch " + batch.batchId() + " from "
                    + batch.spec().quotedTable() + ": " + decision.reason());
        }
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new StoreException.Fatal("the Cassandra adapter was closed; open a new one");
        }
    }

    private TableShape shape(DatasetSpec spec, List<Map<String, Object>> keys) {
        requireOpen();
        if (keys.size() > MAX_BATCH) {
            throw new IllegalArgumentException("at most " + MAX_BATCH
                    + " keys per call (capabilities().maxBatch()), got " + keys.size() + "; split the batch");
        }
        for (int i = 0; i < keys.size(); i++) {
            spec.keyColumns().requireFullKey("keys[" + i + "]", keys.get(i));
        }
        return catalog.shape(spec);
    }
}
