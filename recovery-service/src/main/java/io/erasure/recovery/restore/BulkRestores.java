package io.erasure.recovery.restore;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.CassandraStoreAdapter;
import io.erasure.store.cassandra.bulk.BulkRestorer;
import io.erasure.store.cassandra.bulk.BulkSettings;
import io.erasure.store.cassandra.bulk.WriterClasspath;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.stores.StoreConnectionsProperties;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bulk path of large Cassandra recoveries ({@link BulkRestorer}): the same per-record outcomes as the
 * adapter's online restore (live keys kept, cut-off + 1 µs, remaining TTLs, expired left out, read back), as
 * SSTables written by a child JVM and loaded into the cluster ({@value #LOADER_PROPERTY}: imported into a node on this
 * machine over JMX, or streamed by sstableloader) instead of one write per row.
 *
 * <p>Not throttled per row like the online path: one bulk restore per store connection runs at a time (the
 * import is one operation of the node), which also keeps two recoveries of one table from importing at once.
 */
public class BulkRestores {

    public static final String THRESHOLD_PROPERTY = "erasure.recovery.bulk-threshold";
    public static final String CLASSPATH_PROPERTY = "erasure.recovery.bulk-writer-classpath";
    public static final String LOADER_PROPERTY = "erasure.recovery.bulk-loader";

    private static final Logger log = LoggerFactory.getLogger(BulkRestores.class);

    private final StoreAdapterPool adapters;
    private final StoreConnectionsProperties connections;
    private final Clock clock;
    private final int threshold;
    private final int batchSize;
    private final String configuredClasspath;
    private final Path workDir;
    private final String writerHeap;
    private final Duration writerTimeout;
    private final BulkSettings.Loader loader;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private volatile String classpath;

    /**
     * @param threshold records to restore from which a Cassandra recovery takes the bulk path; 0 or negative: never
     * @param batchSize records per bulk restore (one writer JVM and one import each)
     * @param classpath the SSTable writer's classpath as configured ({@value #CLASSPATH_PROPERTY}), null or blank for
     *                  runtime-cassandra's on this JVM's classpath
     */
    public BulkRestores(
            StoreAdapterPool adapters,
            StoreConnectionsProperties connections,
            Clock clock,
            int threshold,
            int batchSize,
            String classpath,
            Path workDir,
            String writerHeap,
            Duration writerTimeout) {
        this(
                adapters,
                connections,
                clock,
                threshold,
                batchSize,
                classpath,
                workDir,
                writerHeap,
                writerTimeout,
                BulkSettings.Loader.AUTO);
    }

    /**
     * @param loader how the SSTables reach the node ({@value #LOADER_PROPERTY}): import, sstableloader, or auto (import for a
     *               node on this machine)
     */
    public BulkRestores(
            StoreAdapterPool adapters,
            StoreConnectionsProperties connections,
            Clock clock,
            int threshold,
            int batchSize,
            String classpath,
            Path workDir,
            String writerHeap,
            Duration writerTimeout,
            BulkSettings.Loader loader) {
        this.loader = loader == null ? BulkSettings.Loader.AUTO : loader;
        this.adapters = adapters;
        this.connections = connections;
        this.clock = clock;
        this.threshold = threshold;
        this.batchSize = Math.max(1, batchSize);
        this.configuredClasspath = classpath;
        this.workDir = workDir;
        this.writerHeap = writerHeap;
        this.writerTimeout = writerTimeout;
        if (enabled() && connections.connections().values().stream().anyMatch(c -> c.kind() == StoreKind.CASSANDRA)) {
            try {
                classpath();
            } catch (IllegalStateException e) {
                log.warn(
                        "Cassandra recoveries of {} records or more ({}) restore online (slower) until the bulk path can"
                                + " start its SSTable writer: {}",
                        threshold,
                        THRESHOLD_PROPERTY,
                        e.getMessage());
            }
        }
    }

    public boolean enabled() {
        return threshold > 0;
    }

    /** The path a recovery of {@code records} records of {@code spec}'s dataset takes by size, whether it can run or not. */
    public RestorePath pathFor(DatasetSpec spec, int records) {
        return enabled() && spec.storeKind() == StoreKind.CASSANDRA && records >= threshold
                ? RestorePath.BULK
                : RestorePath.ONLINE;
    }

    /**
     * The path a recovery takes, and why it is online where its size chose the bulk path ({@code reason}, null
     * otherwise).
     */
    public record PathChoice(RestorePath path, String reason) {}

    /**
     * The path a recovery of {@code records} records of {@code spec}'s dataset takes: {@link #pathFor}, except that a
     * recovery whose bulk path cannot run here (no SSTable writer on the classpath, a connection without JMX) restores
     * online and says why: a recovery never fails for lack of the faster path.
     */
    public PathChoice choose(DatasetSpec spec, int records) {
        if (pathFor(spec, records) != RestorePath.BULK) {
            return new PathChoice(RestorePath.ONLINE, null);
        }
        String unavailable = unavailable(spec);
        return unavailable == null
                ? new PathChoice(RestorePath.BULK, null)
                : new PathChoice(
                        RestorePath.ONLINE,
                        "restored online: " + records + " records reach the bulk threshold (" + THRESHOLD_PROPERTY + "="
                                + threshold + "), but the bulk path cannot run here: " + unavailable);
    }

    /** Why the bulk path cannot restore {@code spec}'s dataset on this service, or null when it can. */
    private String unavailable(DatasetSpec spec) {
        String writerClasspath;
        try {
            writerClasspath = resolvedClasspath();
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
        StoreConnectionsProperties.Connection connection =
                connections.connections().get(spec.connectionRef());
        if (connection == null) {
            return null; // the adapter pool names the unknown connection and the fix
        }
        try {
            BulkSettings.of(
                    new StoreConnection(spec.connectionRef(), connection.kind(), connection.settings()),
                    workDir,
                    writerTimeout,
                    writerHeap,
                    writerClasspath,
                    loader);
            return null;
        } catch (StoreException.Fatal | IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    public int batchSize() {
        return batchSize;
    }

    /**
     * Restores {@code records} of {@code spec}'s dataset as SSTables; one outcome per record, in order.
     *
     * @throws IllegalStateException naming {@value #CLASSPATH_PROPERTY} if the SSTable writer has no classpath
     * @throws StoreException.Retriable if the node could not be read or the import failed; repeating is safe
     */
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        String writerClasspath = classpath();
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        if (!(adapter instanceof CassandraStoreAdapter cassandra)) {
            throw new IllegalStateException("connection '" + spec.connectionRef() + "' of dataset '" + spec.name()
                    + "' is not a Cassandra connection; the bulk path restores Cassandra tables only");
        }
        StoreConnectionsProperties.Connection connection =
                connections.connections().get(spec.connectionRef());
        BulkSettings settings = BulkSettings.of(
                new StoreConnection(spec.connectionRef(), connection.kind(), connection.settings()),
                workDir,
                writerTimeout,
                writerHeap,
                writerClasspath,
                loader);
        ReentrantLock lock = locks.computeIfAbsent(spec.connectionRef(), ref -> new ReentrantLock());
        lock.lock();
        try {
            return new BulkRestorer(cassandra, settings, clock).restore(spec, records);
        } finally {
            lock.unlock();
        }
    }

    /** The SSTable writer's classpath, checked once it is found. */
    private String classpath() {
        try {
            return resolvedClasspath();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    e.getMessage() + "; or set " + THRESHOLD_PROPERTY + "=0 to restore every recovery online", e);
        }
    }

    /** @throws IllegalStateException naming {@value #CLASSPATH_PROPERTY} if there is no usable writer classpath */
    private String resolvedClasspath() {
        String resolved = classpath;
        if (resolved == null) {
            resolved = WriterClasspath.resolve(configuredClasspath, CLASSPATH_PROPERTY);
            classpath = resolved;
        }
        return resolved;
    }
}
