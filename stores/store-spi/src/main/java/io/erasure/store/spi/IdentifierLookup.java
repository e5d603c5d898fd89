package io.erasure.store.spi;

import io.erasure.model.dataset.DatasetSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Optional for a {@link StoreAdapter}: finds the rows of an identifier when the identifier is not the dataset's
 * whole key but a column the store can search cheaply (a PostgreSQL index that starts with it, the Cassandra
 * partition key, a Cassandra secondary index). Forward deletion uses it to reach such datasets at once instead
 * of waiting for the nightly audit. An adapter offers it by implementing this interface as well.
 *
 * <h2>Safety</h2>
 * A lookup is a bounded read that never scans a table: when the column is not searchable that way,
 * {@link #lookupRefusal} says so and nothing is read. Finding a key deletes nothing; the keys found go through
 * the ordinary plan → log → delete steps, which skip rows written after the cut-off.
 *
 * <h2>Threading and errors</h2>
 * As {@link StoreAdapter}: thread-safe; {@link StoreException.Retriable} for store trouble,
 * {@link StoreException.Fatal} when retrying cannot help.
 */
public interface IdentifierLookup {

    /**
     * Empty when the rows of {@code spec}'s identifier column can be found with indexed reads; otherwise why not,
     * in one sentence that names the fix (e.g. "no index starts with orders.member_id: CREATE INDEX ...").
     */
    Optional<String> lookupRefusal(DatasetSpec spec);

    /**
     * The full keys of the rows whose identifier column equals one of {@code identifiers} (values in their JSON
     * form), distinct, in the store's key order, at most {@code limit} of them (which ones, when more match, is
     * unspecified): a caller that gets {@code limit} keys asks with a larger limit or refuses. Only called after
     * {@link #lookupRefusal} returned empty.
     */
    List<Map<String, Object>> keysByIdentifier(DatasetSpec spec, List<Object> identifiers, int limit);
}
