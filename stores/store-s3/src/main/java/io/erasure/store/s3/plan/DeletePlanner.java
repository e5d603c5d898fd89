package io.erasure.store.s3.plan;

import io.erasure.store.s3.objects.ObjectTemplate;
import io.erasure.store.s3.objects.RowObjects;
import io.erasure.store.s3.objects.StoredObject;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.PlannedStatement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides per key from the objects the row has now: none is {@link Action#ABSENT}; any object last modified after
 * the cut-off (to the second, see {@link StoredObject#lastWriteMicros}) keeps the whole row
 * ({@link Action#SKIP_WRITTEN_AFTER_CUTOFF}); otherwise {@link Action#DELETE_ROW}, with one
 * {@link ObjectDelete} statement per object, carrying the ETag it had.
 */
public final class DeletePlanner {

    private final RowObjects objects;

    public DeletePlanner(RowObjects objects) {
        this.objects = objects;
    }

    public DeletePlan plan(ObjectTemplate template, DeleteBatch batch) {
        List<DeletePlan.KeyDecision> decisions = new ArrayList<>();
        // two keys may render to the same object; it is deleted once
        Set<PlannedStatement> statements = new LinkedHashSet<>();
        for (Map<String, Object> key : batch.keys()) {
            List<StoredObject> current = objects.of(template.render(key));
            Action action;
            if (current.isEmpty()) {
                action = Action.ABSENT;
            } else if (current.stream().anyMatch(o -> batch.cutoff().isWrittenAfter(o.lastWriteMicros()))) {
                action = Action.SKIP_WRITTEN_AFTER_CUTOFF;
            } else {
                action = Action.DELETE_ROW;
                current.forEach(
                        o -> statements.add(new ObjectDelete(objects.bucket(), o.key(), o.etag()).toStatement()));
            }
            decisions.add(new DeletePlan.KeyDecision(key, action));
        }
        return new DeletePlan(batch, List.copyOf(statements), decisions);
    }
}
