package io.erasure.deletion.lookup;

import io.erasure.deletion.execution.BatchEvents;
import io.erasure.deletion.execution.StoreCalls;
import io.erasure.deletion.throttle.AdaptiveThrottle;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.LookupResolution;
import io.erasure.model.event.LookupResolved;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.task.TaskEffect;
import io.erasure.store.spi.IdentifierLookup;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.tasks.DeletionTaskPublisher;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Executes forward lookup tasks ({@link DeletionTask#lookup()}): the request's identifiers are an indexed
 * column of the dataset, not its key, so their rows are found first. The adapter's {@link IdentifierLookup}
 * reads the keys (bounded, indexed, throttled like deletes), the keys go out as ordinary forward tasks
 * ({@link DeletionTask#resolvedFrom}, deterministic ids) and the lookup reports which tasks it published
 * ({@link LookupResolved}), so the control plane waits for exactly those. Nothing is deleted here: the tasks go through
 * plan → log → delete like any other, which skips rows written after the request's cut-off.
 *
 * <p>A dataset that cannot be looked up is reported as refused, with the reason and its fix, and the request leaves it
 * to the nightly audit: no index on the column, a store without lookups, more rows than {@code maxKeys} (forward
 * deletion is for an identifier's rows, not bulk deletes), or a relational table without a timestamp conditional
 * column (a row moved to another identifier between the lookup and its delete would not read as written after the
 * cut-off, and would go with the wrong identifier).
 *
 * <p>Redelivery (the control plane's reconciler re-publishes a stuck request's lookups) publishes the tasks of the
 * first resolution again ({@link LookupResolutions}), not of a new lookup: the same ids, so tasks already done are
 * applied once and a lost one comes back, and the control plane waits for exactly the tasks it was told of.
 */
public class IdentifierResolver {

    private static final Logger log = LoggerFactory.getLogger(IdentifierResolver.class);

    private final StoreAdapterPool stores;
    private final StoreCalls calls;
    private final AdaptiveThrottle throttle;
    private final DeletionTaskPublisher publisher;
    private final BatchEvents events;
    private final LookupResolutions resolutions;
    private final int maxKeys;

    public IdentifierResolver(
            StoreAdapterPool stores,
            StoreCalls calls,
            AdaptiveThrottle throttle,
            DeletionTaskPublisher publisher,
            BatchEvents events,
            JdbcTemplate jdbc,
            JsonMapper json,
            Duration retention,
            Clock clock,
            int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("erasure.deletion.forward-lookup-max-keys must be >= 1, got " + maxKeys);
        }
        this.stores = stores;
        this.calls = calls;
        this.throttle = throttle;
        this.publisher = publisher;
        this.events = events;
        this.resolutions = new LookupResolutions(jdbc, json, retention, clock);
        this.maxKeys = maxKeys;
    }

    /** Resolves a lookup task and reports it; store trouble outlasting the retries is thrown as Retriable. */
    public void resolve(DeletionTask task) {
        if (!(task.effect() instanceof TaskEffect.Lookup)) {
            throw new IllegalArgumentException("task " + task.taskId() + " is not a lookup task");
        }
        String batchId = task.batchId(0);
        try {
            report(task, batchId, lookUp(task, batchId));
        } catch (StoreException.Fatal | IllegalArgumentException refused) {
            log.error("lookup task {} of {} failed: {}", task.taskId(), task.dataset(), refused.getMessage());
            events.send(
                    task,
                    batchId,
                    new BatchFailed(
                            task.dataset(),
                            task.taskId(),
                            batchId,
                            task.requestId(),
                            String.valueOf(refused.getMessage()),
                            false));
        }
    }

    private LookupResolution lookUp(DeletionTask task, String batchId) {
        Optional<List<Map<String, Object>>> earlier = resolutions.find(batchId);
        if (earlier.isPresent()) {
            log.info(
                    "lookup task {} redelivered: its {} keys are published again as resolved first",
                    task.taskId(),
                    earlier.get().size());
            return publish(task, earlier.get());
        }
        DatasetSpec spec = task.spec();
        String store = spec.connectionRef();
        StoreAdapter adapter = calls.call(store, () -> stores.checkedAdapter(spec));
        if (!(adapter instanceof IdentifierLookup lookup)) {
            return LookupResolution.refused(
                    "store type '" + spec.storeKind() + "' cannot find rows by a column other than" + " their key");
        }
        if (!adapter.capabilities().rowTimestamps()
                && !(spec.conditionalColumn() instanceof ConditionalColumn.Named named
                        && named.kind() == ConditionalColumn.Kind.TIMESTAMP)) {
            // a row moved to another identifier between the lookup and the delete must read as written after the
            // cut-off
            return LookupResolution.refused(
                    task.dataset() + " has no timestamp column conditioning its deletes, so a row"
                            + " found by " + task.lookupColumn()
                            + " and moved to another identifier before it is deleted would be"
                            + " deleted anyway: register an updated_at column as its conditional column"
                            + " (ConditionalColumn.timestamp)");
        }
        Optional<String> refused = calls.call(store, () -> lookup.lookupRefusal(spec));
        if (refused.isPresent()) {
            String refusal = refused.get();
            log.info(
                    "lookup task {}: {} cannot be looked up by {}: {}",
                    task.taskId(),
                    task.dataset(),
                    task.lookupColumn(),
                    refusal);
            return LookupResolution.refused(refusal);
        }
        if (task.anonymising() && !adapter.capabilities().clearColumns()) {
            throw new IllegalArgumentException(
                    "store type '" + spec.storeKind() + "' cannot anonymise (clear columns) of " + task.dataset()
                            + "; set its forward policy to DELETE or KEEP_SNAPSHOT");
        }
        List<Object> identifiers =
                task.keys().stream().map(key -> key.get(task.lookupColumn())).toList();
        throttle.acquire(store, identifiers.size());
        List<Map<String, Object>> keys =
                calls.call(store, () -> lookup.keysByIdentifier(spec, identifiers, maxKeys + 1));
        if (keys.size() > maxKeys) {
            return LookupResolution.refused("more than " + maxKeys + " rows of " + task.dataset() + " hold the "
                    + identifiers.size() + " identifier(s) of lookup task " + task.taskId()
                    + "; forward deletion is for an"
                    + " identifier's rows, not bulk deletes (raise erasure.deletion.forward-lookup-max-keys to"
                    + " reach them)");
        }
        return publish(task, resolutions.keep(batchId, keys));
    }

    private LookupResolution publish(DeletionTask task, List<Map<String, Object>> keys) {
        List<DeletionTask> tasks = DeletionTask.taskSized(keys).stream()
                .map(part -> DeletionTask.resolvedFrom(task, part))
                .toList();
        try {
            publisher.publish(tasks);
        } catch (IllegalStateException e) {
            // the lookup is redelivered and publishes the same tasks again (same ids, applied once)
            throw new StoreException.Retriable(
                    "could not publish the tasks of lookup " + task.taskId() + ": " + e.getMessage(), e);
        }
        log.info("lookup task {}: {} keys of {} in {} tasks", task.taskId(), keys.size(), task.dataset(), tasks.size());
        return new LookupResolution(tasks.stream().map(DeletionTask::taskId).toList(), keys.size(), null);
    }

    private void report(DeletionTask task, String batchId, LookupResolution resolution) {
        events.send(
                task, batchId, new LookupResolved(task.dataset(), task.taskId(), batchId, task.originId(), resolution));
    }
}
