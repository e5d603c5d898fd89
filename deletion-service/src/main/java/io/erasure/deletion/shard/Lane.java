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
 * is read to tell. A task whose headers contradict it ({@link #contradiction}) is executed by no lane.
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
        Optional<String> store = storeOf(headers);
        return store.map(taskStore -> takes(taskStore, pacedOf(headers)));
    }

    /**
     * Why the headers of {@code task}'s message contradict the task itself, or empty when they agree (or it has no
     * store header, as published before they existed). The headers are not signed: a genuine task copied with other
     * headers would run in another store's lane (another store's throttle), or unpaced in a lane that does not pace.
     * Publishers set them from the task ({@link Topics#taskHeaders}), so a task whose headers say otherwise is such a
     * copy; the lane its own headers name passes over it, and the genuine message runs in the right lane.
     */
    public static Optional<String> contradiction(Headers headers, DeletionTask task) {
        Optional<String> store = storeOf(headers);
        if (store.isEmpty()) {
            return Optional.empty();
        }
        boolean paced = pacedOf(headers);
        if (store.get().equals(task.spec().connectionRef()) && paced == task.paced()) {
            return Optional.empty();
        }
        return Optional.of("its headers name store '" + store.get() + "'" + (paced ? " (paced)" : "") + " but the task"
                + " is of store '" + task.spec().connectionRef() + "'" + (task.paced() ? " (paced)" : " (not paced)"));
    }

    private static Optional<String> storeOf(Headers headers) {
        Header storeHeader = headers.lastHeader(Topics.TASK_STORE);
        if (storeHeader == null || storeHeader.value() == null) {
            return Optional.empty();
        }
        return Optional.of(new String(storeHeader.value(), StandardCharsets.UTF_8));
    }

    private static boolean pacedOf(Headers headers) {
        Header pacedHeader = headers.lastHeader(Topics.TASK_PACED);
        return pacedHeader != null
                && pacedHeader.value() != null
                && Boolean.parseBoolean(new String(pacedHeader.value(), StandardCharsets.UTF_8));
    }

    /** Whether {@code task}, as read, is this lane's. */
    public boolean takes(DeletionTask task) {
        return takes(task.spec().connectionRef(), task.paced());
    }

    private boolean takes(String taskStore, boolean taskPaced) {
        return isFallback() ? !configured.contains(taskStore) : store.equals(taskStore) && paced == taskPaced;
    }
}
