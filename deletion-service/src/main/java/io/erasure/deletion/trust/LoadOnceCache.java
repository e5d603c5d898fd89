package io.erasure.deletion.trust;

import io.erasure.store.spi.StoreException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A small bounded cache (least recently used first out) that loads each key once: concurrent callers of a key being
 * loaded wait for that one load instead of starting their own. A load that ends in a refusal is kept for
 * {@code refusalTtl} only (what was missing may be written meanwhile); a load that throws (S3 unreachable) is not kept,
 * and its waiters get the same exception.
 */
final class LoadOnceCache<V> {

    /** What a load found: a value, or why there is none. */
    record Loaded<V>(V value, Refusal refusal) {
        static <V> Loaded<V> of(V value) {
            return new Loaded<>(value, null);
        }

        static <V> Loaded<V> refused(Refusal refusal) {
            return new Loaded<>(null, refusal);
        }
    }

    private static final class Entry<V> {
        final CompletableFuture<Loaded<V>> loaded = new CompletableFuture<>();
        volatile long refusedUntil;
        volatile boolean refused;

        boolean expired(long now) {
            return refused && loaded.isDone() && now - refusedUntil >= 0;
        }
    }

    private final long refusalTtlNanos;
    private final LongSupplier nanos;
    private final Map<String, Entry<V>> entries;

    LoadOnceCache(int capacity, java.time.Duration refusalTtl, LongSupplier nanos) {
        this.refusalTtlNanos = refusalTtl.toNanos();
        this.nanos = nanos;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry<V>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** What {@code key} holds, loaded by {@code loader} if no caller loaded it yet (or its refusal expired). */
    Loaded<V> get(String key, Supplier<Loaded<V>> loader) {
        Entry<V> entry;
        boolean mine = false;
        synchronized (entries) {
            entry = entries.get(key);
            if (entry != null && entry.expired(nanos.getAsLong())) {
                entries.remove(key);
                entry = null;
            }
            if (entry == null) {
                entry = new Entry<>();
                entries.put(key, entry);
                mine = true;
            }
        }
        if (mine) {
            Loaded<V> loaded;
            try {
                loaded = loader.get();
            } catch (RuntimeException | Error e) {
                synchronized (entries) {
                    entries.remove(key, entry);
                }
                entry.loaded.completeExceptionally(e);
                throw e;
            }
            if (loaded.refusal() != null) {
                entry.refusedUntil = nanos.getAsLong() + refusalTtlNanos;
                entry.refused = true;
            }
            entry.loaded.complete(loaded);
            return loaded;
        }
        try {
            return entry.loaded.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException.Retriable("interrupted while waiting for " + key + " to be read", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** How many keys are held (loaded, being loaded or refused), for tests. */
    int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
