package io.erasure.store.spi;

import java.time.Clock;

/**
 * An optional way to restore many deletion records of one type of store at once, for stores where one write per row is
 * what makes a large recovery slow (Cassandra: the rows written as SSTables by a child JVM and loaded into the
 * cluster). A module offering it lists its provider in
 * {@code META-INF/services/io.erasure.store.spi.BulkRestoreProvider}, beside (or after) the type's
 * {@link StoreAdapterProvider}; a service without one for a type restores that type online, through
 * {@link StoreAdapter#restore}. Found by {@link #type()} through {@link BulkRestoreProviders}.
 *
 * <p>A bulk restore must give each record the outcome the adapter's online restore would (live keys kept, expired
 * records left out, every written key read back): it is a faster path, never other rules.
 *
 * <p>Providers are stateless and thread-safe.
 */
public interface BulkRestoreProvider {

    /** The store kind this provider restores, the name of a {@code StoreKind} (e.g. {@code CASSANDRA}). */
    String type();

    /**
     * Bulk restores under {@code options}, reading the time (remaining TTLs) from {@code clock}, once what they need on
     * this machine is there (the Cassandra one: the SSTable writer's classpath). Checking that may read the filesystem:
     * call it once and keep the answer.
     *
     * @throws IllegalArgumentException if an option is malformed (a configuration error: the message names the setting
     *                                  under {@link BulkRestoreOptions#settingsPrefix()})
     * @throws IllegalStateException    if this machine lacks what bulk restores need; the message names the setting
     *                                  that fixes it. The service restores online meanwhile.
     */
    BulkRestore open(BulkRestoreOptions options, Clock clock);
}
