package io.erasure.store.cassandra;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.load.LoadProbe;
import io.erasure.store.cassandra.load.PendingCompactions;
import io.erasure.store.cassandra.plan.DeleteExecutor;
import io.erasure.store.cassandra.plan.DeletePlanner;
import io.erasure.store.cassandra.read.LiveReads;
import io.erasure.store.cassandra.restore.Restorer;
import io.erasure.store.cassandra.schema.TableCatalog;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Cassandra store adapter: deletes at the cut-off ({@code USING TIMESTAMP}), a partition delete
 * only where the partition holds nothing but the batch's rows, restores at cut-off + 1 µs with the
 * remaining TTLs. Keys and values travel in JSON form and are encoded by Cassandra itself
 * ({@code fromJson}, {@code toJson}, {@code INSERT JSON}). Thread-safe; owns its session.
 */
public final class CassandraStoreAdapter implements StoreAdapter {

    /** Keys per call: well under a partition probe's page and the point reads one call should make. */
    public static final int MAX_BATCH = 500;

    private static final StoreCapabilities CAPABILITIES = new StoreCapabilities(true, true, true, true, false, MAX_BATCH);

    private final CqlRunner cql;
    private final TableCatalog catalog;
    private final LiveReads reads;
    private final DeletePlanner planner;
    private final DeleteExecutor executor;
    private final Restorer restorer;
    private final LoadProbe load;
    private final Optional<PendingCompactions> pendingCompactions;
    private final AtomicBoolean closed = new AtomicBoolean();

    CassandraStoreAdapter(CqlRunner cql, CassandraSettings settings, Optional<PendingCompactions> pendingCompactions,
                          Clock clock) {
        this.cql = cql;
        this.catalog = new TableCatalog(cql.session(), settings.connectionRef());
        this.reads = new LiveReads(cql);
        this.planner = new DeletePlanner(cql, reads);
        this.executor = new DeleteExecutor(cql, settings.maxRowTombstonesPerPartition());
        this.restorer = new Restorer(cql, reads, clock);
        this.pendingCompactions = pendingCompactions;
        this.load = new LoadProbe(cql, settings.localDatacenter(), settings.loadLimits(), pendingCompactions, clock);
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

    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        return planner.plan(shape(batch.spec(), batch.keys()), batch);
    }

    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        return executor.execute(shape(plan.batch().spec(), plan.batch().keys()), plan);
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        if (records.size() > MAX_BATCH) {
            throw new IllegalArgumentException("at most " + MAX_BATCH + " records per restore call, got " + records.size());
        }
        return restorer.restore(catalog.shape(spec), records);
    }

    @Override
    public LoadSignal loadSignal() {
        return load.measure();
    }

    /** The checked shape of {@code spec}'s table: key and regular column types (for the bulk restore path). */
    public TableShape tableShape(DatasetSpec spec) {
        return shape(spec, List.of());
    }

    /**
     * The driver's metadata of {@code spec}'s table as the cluster describes it now (the bulk restore path
     * builds its SSTable schema from it).
     */
    public com.datastax.oss.driver.api.core.metadata.schema.TableMetadata tableMetadata(DatasetSpec spec) {
        shape(spec, List.of());
        return cql.session().getMetadata().getKeyspace(com.datastax.oss.driver.api.core.CqlIdentifier.fromInternal(spec.namespace()))
                .flatMap(keyspace -> keyspace.getTable(com.datastax.oss.driver.api.core.CqlIdentifier.fromInternal(spec.table())))
                .orElseThrow(() -> new StoreException.Fatal("table " + spec.quotedTable() + " is gone; recreate it first"));
    }

    /** The consistency level every read, delete and restore of this adapter uses. */
    public com.datastax.oss.driver.api.core.ConsistencyLevel consistency() {
        return cql.consistency();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            pendingCompactions.ifPresent(PendingCompactions::close);
            cql.session().close();
        }
    }

    private TableShape shape(DatasetSpec spec, List<Map<String, Object>> keys) {
        if (closed.get()) {
            throw new StoreException.Fatal("the Cassandra adapter was closed; open a new one");
        }
        if (keys.size() > MAX_BATCH) {
            throw new IllegalArgumentException("at most " + MAX_BATCH + " keys per call (capabilities().maxBatch()), got "
                    + keys.size() + "; split the batch");
        }
        for (int i = 0; i < keys.size(); i++) {
            spec.keyColumns().requireFullKey("keys[" + i + "]", keys.get(i));
        }
        return catalog.shape(spec);
    }
}
