package io.erasure.recovery.restore;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.spi.BulkRestore;
import io.erasure.store.spi.BulkRestoreOptions;
import io.erasure.store.spi.BulkRestoreProvider;
import io.erasure.store.spi.BulkRestoreProviders;
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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bulk path of large recoveries, for the store types that offer one ({@link BulkRestoreProvider}s on the class
 * path). Cassandra's writes SSTables in a child JVM and loads them into the cluster as {@value #LOADER_PROPERTY}
 * says: imported into a node on this machine over JMX, or streamed by sstableloader. It gives the same
 * per-record outcomes as the adapter's online restore (live keys kept, cut-off + 1 µs, remaining TTLs, expired left
 * out, read back), without one write per row.
 *
 * <p>Not throttled per row like the online path: one bulk restore per store connection runs at a time (a load is one
 * operation of the store), which also keeps two recoveries of one table from loading at once.
 */
public class BulkRestores {

    public static final String PREFIX = "erasure.recovery.bulk-";
    public static final String THRESHOLD_PROPERTY = PREFIX + "threshold";
    public static final String CLASSPATH_PROPERTY = PREFIX + "writer-classpath";
    public static final String LOADER_PROPERTY = PREFIX + "loader";

    private static final Logger log = LoggerFactory.getLogger(BulkRestores.class);

    private final StoreAdapterPool adapters;
    private final StoreConnectionsProperties connections;
    private final BulkRestoreProviders providers;
    private final BulkRestoreOptions options;
    private final Clock clock;
    private final int threshold;
    private final int batchSize;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /** Each type's bulk restores once their provider could open them; a type not here is tried again when asked. */
    private final Map<String, BulkRestore> opened = new ConcurrentHashMap<>();

    /** With the default loader, and the providers on this class's class path. */
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
                BulkRestoreProviders.load(),
                clock,
                threshold,
                batchSize,
                new BulkRestoreOptions(PREFIX, workDir, writerTimeout, writerHeap, classpath, null));
    }

    /**
     * @param threshold records to restore from which a recovery of a type with a bulk provider takes the bulk path; 0
     *                  or negative: never
     * @param batchSize records per bulk restore (one writer JVM and one load each)
     * @param options   the {@code erasure.recovery.bulk-*} settings; a malformed one fails here when the bulk path is
     *                  enabled, naming the setting
     */
    public BulkRestores(
            StoreAdapterPool adapters,
            StoreConnectionsProperties connections,
            BulkRestoreProviders providers,
            Clock clock,
            int threshold,
            int batchSize,
            BulkRestoreOptions options) {
        this.adapters = adapters;
        this.connections = connections;
        this.providers = providers;
        this.options = options;
        this.clock = clock;
        this.threshold = threshold;
        this.batchSize = Math.max(1, batchSize);
        if (enabled()) {
            providers.types().forEach(this::openEarly);
        }
    }

    /**
     * Opens {@code type}'s bulk restores at start: a malformed setting fails the service now; a missing writer is
     * logged for a type this service has connections of, and tried again at the first recovery large enough.
     */
    private void openEarly(String type) {
        try {
            opened(StoreKind.valueOf(type));
        } catch (IllegalStateException e) {
            if (connections.connections().values().stream()
                    .anyMatch(c -> c.kind().name().equals(type))) {
                log.warn(
                        "{} recoveries of {} records or more ({}) restore online (slower) until the bulk path can"
                                + " start its SSTable writer: {}",
                        type,
                        threshold,
                        THRESHOLD_PROPERTY,
                        e.getMessage());
            }
        }
    }

    public boolean enabled() {
        return threshold > 0;
    }

    /**
     * The path a recovery of {@code records} records of {@code spec}'s dataset takes by size, whether it can run or
     * not.
     */
    public RestorePath pathFor(DatasetSpec spec, int records) {
        return enabled()
                        && records >= threshold
                        && providers.provider(spec.storeKind()).isPresent()
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
        return unavailable(spec)
                .map(why -> new PathChoice(
                        RestorePath.ONLINE,
                        "restored online: " + records + " records reach the bulk threshold (" + THRESHOLD_PROPERTY + "="
                                + threshold + "), but the bulk path cannot run here: " + why))
                .orElse(new PathChoice(RestorePath.BULK, null));
    }

    /** Why the bulk path cannot restore {@code spec}'s dataset on this service, or empty when it can. */
    private Optional<String> unavailable(DatasetSpec spec) {
        BulkRestore bulk;
        try {
            bulk = opened(spec.storeKind());
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
        StoreConnectionsProperties.Connection connection =
                connections.connections().get(spec.connectionRef());
        if (connection == null) {
            return Optional.empty(); // the adapter pool names the unknown connection and the fix
        }
        return bulk.unavailable(connection(spec, connection));
    }

    public int batchSize() {
        return batchSize;
    }

    /**
     * Restores {@code records} of {@code spec}'s dataset in bulk; one outcome per record, in order.
     *
     * @throws IllegalStateException naming {@value #CLASSPATH_PROPERTY} if the SSTable writer has no classpath, or
     *                               saying that {@code spec}'s store type has no bulk path
     * @throws StoreException.Retriable if the store could not be read or the load failed; repeating is safe
     */
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        BulkRestore bulk = checked(spec.storeKind());
        StoreAdapter adapter = adapters.checkedAdapter(spec);
        StoreConnection connection = connection(spec, connections.connections().get(spec.connectionRef()));
        ReentrantLock lock = locks.computeIfAbsent(spec.connectionRef(), ref -> new ReentrantLock());
        lock.lock();
        try {
            return bulk.restore(adapter, connection, spec, records);
        } finally {
            lock.unlock();
        }
    }

    private static StoreConnection connection(DatasetSpec spec, StoreConnectionsProperties.Connection connection) {
        return new StoreConnection(spec.connectionRef(), connection.kind(), connection.settings());
    }

    /** {@link #opened}, with how to do without the bulk path in the message. */
    private BulkRestore checked(StoreKind kind) {
        try {
            return opened(kind);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    e.getMessage() + "; or set " + THRESHOLD_PROPERTY + "=0 to restore every recovery online", e);
        }
    }

    /**
     * {@code kind}'s bulk restores, opened once they can be.
     *
     * @throws IllegalStateException if {@code kind} has no bulk path, or its provider cannot run it here (naming the
     *                               setting)
     */
    private BulkRestore opened(StoreKind kind) {
        BulkRestore bulk = opened.get(kind.name());
        if (bulk != null) {
            return bulk;
        }
        BulkRestoreProvider provider = providers
                .provider(kind)
                .orElseThrow(() -> new IllegalStateException("no bulk restore path for " + kind + " stores on this"
                        + " service's class path; they restore online"));
        return opened.computeIfAbsent(kind.name(), type -> provider.open(options, clock));
    }
}
