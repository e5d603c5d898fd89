package io.erasure.store.spi;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import java.util.List;
import java.util.Map;

/**
 * The only way validation, deletion and recovery reach a store.
 *
 * <h2>Lifecycle</h2>
 * <pre>{@code
 * open → checkDataset → (readRows | checkLiveState | planDelete → executeDelete | restore | loadSignal)* → close
 * }</pre>
 * {@link #checkDataset} must have accepted a spec before any other call uses it.
 *
 * <h2>Threading</h2>
 * An adapter is thread-safe: deletion shards share one adapter per store and call it concurrently.
 * Calls block until the store has answered.
 *
 * <h2>Keys and values</h2>
 * A key is a map with exactly the dataset's primary key columns ({@code KeyColumns.requireFullKey});
 * values are in their JSON form (numbers, strings, booleans; UUIDs, timestamps as strings, blobs as
 * base64), as in candidate files and deletion records. Keys in a batch are distinct. A number with a fraction or an
 * exponent that came through the platform's JSON is a {@link java.math.BigDecimal} holding every digit (a record's
 * {@code numeric} value, a {@code double} alike); an adapter accepts it wherever it accepts a {@code Double} and
 * restores it exactly.
 *
 * <h2>Safety</h2>
 * Every delete is conditioned on the batch's cut-off: a row (Cassandra: a cell) written after it
 * survives, even when the write lands between the read and the delete. Restores never overwrite
 * data written after the delete. Nothing here deletes a row that {@link #planDelete} did not list.
 *
 * <h2>Idempotence</h2>
 * Executing the same plan twice changes nothing more than executing it once: the second run finds
 * the rows absent. Restoring the same records twice restores them once and reports the rest as
 * already present ({@link RestoreOutcome.Status#NEWER_DATA_KEPT} carries "already restored").
 *
 * <h2>Errors</h2>
 * {@link StoreException.Retriable} (timeouts, unavailable replicas, lost connections): the caller
 * backs off and retries the same call, which is safe by idempotence. {@link StoreException.Fatal}
 * (unknown table, schema not as registered, refused dataset): retrying cannot help; the step fails
 * with the message. Illegal arguments (a key missing a column) are {@link IllegalArgumentException}.
 */
public interface StoreAdapter extends AutoCloseable {

    StoreCapabilities capabilities();

    /**
     * Checks a dataset spec against the live schema: the table and every named column exist, the key
     * columns are the table's primary key, the conditional column has a usable type, and the table is
     * one this adapter can delete from safely (e.g. Cassandra counter tables are refused).
     *
     * @throws StoreException.Fatal with the reason and the fix, if the dataset cannot be served
     */
    void checkDataset(DatasetSpec spec);

    /**
     * Reads the full rows of {@code keys}: every column with, where the store has them, per-column write
     * timestamps (µs) and remaining TTLs. Keys that have no row are left out. Bounded: at most
     * {@link StoreCapabilities#maxBatch()} keys, point reads only.
     */
    List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys);

    /** Cheap point reads: is each key present, and when was it last written? One state per key, in order. */
    List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys);

    /**
     * How many statements one {@link #readRows} or {@link #checkLiveState} call of {@code keyCount} keys sends to
     * the store: what a caller's read budget (validation's reads per second) is charged for the call. An adapter
     * that reads a whole key set in one multi-key statement says so here; the default is one point read per key,
     * which is never less than what the store serves.
     */
    default int readStatements(DatasetSpec spec, int keyCount) {
        return keyCount;
    }

    /**
     * Plans the delete of a batch without changing anything: the exact statements with their bound
     * values (what a dry-run shows) and, per key, what will happen. May read live state (Cassandra
     * reads the partitions to decide whether a partition delete is safe).
     */
    DeletePlan planDelete(DeleteBatch batch);

    /**
     * Executes a plan made by this adapter, conditioned on the batch's cut-off. The caller must have
     * logged a deletion record for every row the plan deletes (write-ahead log) before calling this.
     */
    DeleteOutcome executeDelete(DeletePlan plan);

    /**
     * {@link #executeDelete(DeletePlan)} within the throttle's current rate and the gate: an adapter whose store paces
     * a long delete itself reads {@code pace} while it runs. Every other adapter ignores it (the caller has already
     * waited for the batch's permits), which is the default.
     */
    default DeleteOutcome executeDelete(DeletePlan plan, DeletePace pace) {
        return executeDelete(plan);
    }

    /**
     * Restores rows from their deletion records without ever overwriting newer data: Cassandra writes
     * each cell at its record's cut-off + 1 µs with its remaining TTL; relational stores insert only where
     * the key is absent and report the conflict otherwise. One outcome per record, in order.
     */
    RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records);

    /** The store's own load, shared by every replica that asks, for the deletion throttle. */
    LoadSignal loadSignal();

    /** Releases the adapter's connections; idempotent. */
    @Override
    void close();
}
