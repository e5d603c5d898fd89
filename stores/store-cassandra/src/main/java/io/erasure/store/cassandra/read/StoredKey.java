package io.erasure.store.cassandra.read;

import io.erasure.store.spi.LiveState;
import java.util.List;

/**
 * The live state of a key together with its primary key as Cassandra renders it ({@code toJson} of each key
 * column). Two keys of a batch may spell one row differently ({@code 1} and {@code 1.0}, two forms of one
 * timestamp); their stored forms are equal, so decisions about partitions compare these, never the caller's
 * spelling.
 *
 * @param partition the stored partition key, empty if the key is absent
 * @param clustering the stored clustering key, empty if the key is absent or the table has none
 */
public record StoredKey(LiveState state, List<String> partition, List<String> clustering) {

    public StoredKey {
        partition = List.copyOf(partition);
        clustering = List.copyOf(clustering);
    }
}
