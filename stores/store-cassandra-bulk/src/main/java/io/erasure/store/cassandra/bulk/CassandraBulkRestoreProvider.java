package io.erasure.store.cassandra.bulk;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.CassandraStoreAdapter;
import io.erasure.store.spi.BulkRestore;
import io.erasure.store.spi.BulkRestoreOptions;
import io.erasure.store.spi.BulkRestoreProvider;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Cassandra's bulk restores ({@link BulkRestorer}): SSTables written by {@code CQLSSTableWriter} in a child JVM, loaded
 * by import over JMX or by {@code sstableloader} ({@link BulkSettings.Loader}, the options' {@code loader}).
 * {@link #open} checks the writer's classpath once ({@link WriterClasspath}); each connection then needs its JMX
 * address ({@link BulkSettings#of}).
 */
public final class CassandraBulkRestoreProvider implements BulkRestoreProvider {

    @Override
    public String type() {
        return StoreKind.CASSANDRA.name();
    }

    @Override
    public BulkRestore open(BulkRestoreOptions options, Clock clock) {
        BulkSettings.Loader loader = BulkSettings.Loader.parse(options.loader(), options.setting("loader"));
        String classpath = WriterClasspath.resolve(options.helperClasspath(), options.setting("writer-classpath"));
        return new Opened(options, loader, classpath, clock);
    }

    private record Opened(BulkRestoreOptions options, BulkSettings.Loader loader, String classpath, Clock clock)
            implements BulkRestore {

        @Override
        public Optional<String> unavailable(StoreConnection connection) {
            try {
                settings(connection);
                return Optional.empty();
            } catch (StoreException.Fatal | IllegalArgumentException e) {
                return Optional.of(e.getMessage());
            }
        }

        @Override
        public RestoreOutcome restore(
                StoreAdapter adapter, StoreConnection connection, DatasetSpec spec, List<DeletionRecord> records) {
            if (!(adapter instanceof CassandraStoreAdapter cassandra)) {
                throw new StoreException.Fatal("connection '" + connection.ref() + "' of dataset '" + spec.name()
                        + "' is not a Cassandra connection; the Cassandra bulk path restores Cassandra tables only");
            }
            return new BulkRestorer(cassandra, settings(connection), clock).restore(spec, records);
        }

        private BulkSettings settings(StoreConnection connection) {
            return BulkSettings.of(
                    connection, options.workDir(), options.helperTimeout(), options.helperHeap(), classpath, loader);
        }
    }
}
