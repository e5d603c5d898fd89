package io.erasure.deletion.shard;

import io.erasure.model.contract.Topics;
import io.erasure.model.task.DeletionTask;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The tasks one execution lane takes ({@link StoreLanes}): a store's tasks of runs without a window, or of runs spread
 * over one ({@code paced}), or, for the fallback lane ({@code store} null), the tasks of stores this replica has no
 * connection for. A task says whose it is in its headers ({@link Topics#TASK_STORE}, {@link Topics#TASK_PACED}), so a
 * lane passes over the others' tasks without reading them; a task without the headers (published by an older version)
 * is read to tell.
 *
 * @param id         the lane's name, for logs
 * @param store      the lane's store (connection ref), or null for the fallback lane
 * @param paced      whether the lane takes the store's paced runs
 * @param configured the stores that have lanes of their own (those the fallback lane leaves to them)
 */
public record Lane(String id, String store, boolean paced, Set<String> configured) {

    public Lane {
        configured = Set.copyOf(configured);
    }

    static Lane of(String store, boolean paced, Set<String> configured) {
        return new Lane("deletion-lane-" + store + (paced ? "-paced" : ""), store, paced, configured);
    }

    static Lane fallback(Set<String> configured) {
        return new Lane("deletion-lane-unconfigured", null, false, configured);
    }

    /** The lane of the stores without one: it also reports the tasks no lane can read. */
    public boolean isFallback() {
        return store == null;
    }

    /** Whether a task with these headers is this lane's, told without reading it; empty if it has no store header. */
    public Optional<Boolean> takes(Headers headers) {
        Header storeHeader = headers.lastHeader(Topics.TASK_STORE);
        if (storeHeader == null || storeHeader.value() == null) {
            return Optional.empty();
        }
        Header pacedHeader = headers.lastHeader(Topics.TASK_PACED);
        boolean taskPaced = pacedHeader != null && pacedHeader.value() != null
                && Boolean.parseBoolean(new String(pacedHeader.value(), StandardCharsets.UTF_8));
        return Optional.of(takes(new String(storeHeader.value(), StandardCharsets.UTF_8), taskPaced));
    }

    /** Whether {@code task}, as read, is this lane's. */
    public boolean takes(DeletionTask task) {
        return takes(task.spec().connectionRef(), task.paced());
    }

    private boolean takes(String taskStore, boolean taskPaced) {
        return isFallback() ? !configured.contains(taskStore) : store.equals(taskStore) && paced == taskPaced;
    }
}
