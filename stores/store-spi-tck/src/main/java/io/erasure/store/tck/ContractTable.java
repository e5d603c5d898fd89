package io.erasure.store.tck;

import io.erasure.model.dataset.DatasetSpec;
import java.util.Optional;

/**
 * What an adapter's contract test supplies: a fresh table of the contract shape in the real engine,
 * and direct (adapter-independent) writes and reads of it.
 *
 * <p>The contract shape: primary key {@code id bigint}; columns {@code payload text}, {@code score int};
 * stores without per-cell write times add a conditional column (e.g. {@code updated_at}) that
 * {@link #write} sets from {@code writeTimeMicros}.
 */
public interface ContractTable {

    /** Creates an empty table named {@code table} and returns the dataset spec that points at it. */
    DatasetSpec create(String table);

    /** A spec for a table that does not exist, for the refusal test. */
    DatasetSpec missing(String table);

    /**
     * Inserts or overwrites row {@code id} as if written at {@code writeTimeMicros}; {@code ttlSeconds}
     * (nullable) applies where the store has TTLs and is ignored elsewhere.
     */
    void write(DatasetSpec spec, long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds);

    /** The row as the store holds it, read directly, or empty if there is none. */
    Optional<FixtureRow> read(DatasetSpec spec, long id);

    /**
     * A row read directly from the store.
     *
     * @param writeTimeMicros write time of {@code payload} (or the conditional column)
     * @param ttlSeconds      remaining TTL of {@code payload}, null if none or unsupported
     */
    record FixtureRow(long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {
    }
}
