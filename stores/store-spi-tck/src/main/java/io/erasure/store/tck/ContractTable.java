package io.erasure.store.tck;

import io.erasure.model.dataset.DatasetSpec;
import java.util.Map;
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
     * Optional, for the lookup tests ({@link io.erasure.store.spi.IdentifierLookup}): creates an empty table like
     * {@link #create} plus a non-key column {@code member bigint}, searchable by the store when {@code indexed} (a
     * PostgreSQL index that starts with it, a Cassandra secondary index) and not otherwise, and returns the spec
     * whose {@code identifierColumn} is {@code member}. Empty (the default) skips those tests.
     */
    default Optional<DatasetSpec> createWithIdentifier(String table, boolean indexed) {
        return Optional.empty();
    }

    /** As {@link #write} without TTL, also setting {@code member}; only for tables of {@link #createWithIdentifier}. */
    default void writeWithIdentifier(
            DatasetSpec spec, long id, long member, String payload, int score, long writeTimeMicros) {
        throw new UnsupportedOperationException("this fixture has no tables with an identifier column");
    }

    /**
     * Optional, for the value-fidelity test: creates an empty table keyed by {@code id bigint} (or the store's
     * equivalent) whose other columns hold values at the edges of what the store keeps exactly: the smallest and
     * largest bigint, decimals with more digits than a double carries, timestamps to the microsecond, bytes of every
     * value, UUIDs, collections and documents with such values inside, text beyond ASCII; a store that keeps bytes
     * holds bytes of every value. Stores without write times add the conditional column, as in {@link #create}.
     * Empty (the default) skips the test.
     */
    default Optional<DatasetSpec> createForExtremeValues(String table) {
        return Optional.empty();
    }

    /**
     * Writes row {@code id} of a table of {@link #createForExtremeValues} with the fixture's values, as of
     * {@code writeTimeMicros}.
     */
    default void writeExtremeValues(DatasetSpec spec, long id, long writeTimeMicros) {
        throw new UnsupportedOperationException("this fixture has no table for extreme values");
    }

    /**
     * Row {@code id} of a table of {@link #createForExtremeValues} as the store itself renders it, for an exact
     * comparison: column (or field) to the store's own text of the value (PostgreSQL's {@code col::text}, the CQL
     * literal), or to the base64 of the bytes where the store holds bytes. Empty if there is no such row.
     */
    default Optional<Map<String, String>> readExactly(DatasetSpec spec, long id) {
        throw new UnsupportedOperationException("this fixture has no table for extreme values");
    }

    /**
     * A row read directly from the store.
     *
     * @param writeTimeMicros write time of {@code payload} (or the conditional column)
     * @param ttlSeconds      remaining TTL of {@code payload}, null if none or unsupported
     */
    record FixtureRow(long id, String payload, int score, long writeTimeMicros, Integer ttlSeconds) {}
}
