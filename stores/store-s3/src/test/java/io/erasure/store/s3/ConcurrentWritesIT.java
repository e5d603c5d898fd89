package io.erasure.store.s3;

import static io.erasure.store.s3.TestS3.exists;
import static io.erasure.store.s3.TestS3.key;
import static io.erasure.store.s3.TestS3.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.LiveState;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes that race a delete, on a server without conditional requests (s3proxy): LastModified after the cut-off
 * keeps an object at plan time, and the re-read right before the delete keeps an object whose ETag or date changed
 * since the plan. Cut-offs come from the server's clock, the one that sets LastModified.
 */
class ConcurrentWritesIT {

    private static final String BUCKET = "concurrent-owner";
    private static final DatasetSpec SPEC = TestS3.spec("exports-concurrent", "exports/{customer_id}.json");

    @RegisterExtension
    static final TestS3.OwnerBucket OWNER = new TestS3.OwnerBucket(BUCKET, SPEC);

    @Test
    void anObjectLastModifiedAfterTheCutoffIsKept() {
        put(BUCKET, "exports/30.json", "{\"v\":\"before the cut-off\"}");
        CutoffTimestamp cutoff = TestS3.serverCutoff();
        TestS3.awaitServerSecondAfter(cutoff);
        put(BUCKET, "exports/31.json", "{\"v\":\"after the cut-off\"}");

        List<LiveState> states = OWNER.adapter().checkLiveState(SPEC, List.of(key(30), key(31)));
        DeletePlan plan =
                OWNER.adapter().planDelete(new DeleteBatch(SPEC, "batch-cutoff", cutoff, List.of(key(30), key(31))));
        DeleteOutcome outcome = OWNER.adapter().executeDelete(plan);

        assertThat(states).extracting(s -> s.writtenAfter(cutoff)).containsExactly(false, true);
        assertThat(plan.decisions())
                .extracting(DeletePlan.KeyDecision::action)
                .containsExactly(Action.DELETE_ROW, Action.SKIP_WRITTEN_AFTER_CUTOFF);
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(exists(BUCKET, "exports/30.json")).isFalse();
        assertThat(TestS3.text(BUCKET, "exports/31.json")).contains("{\"v\":\"after the cut-off\"}");
    }

    @Test
    void anObjectRewrittenAfterThePlanIsNotDeleted() {
        put(BUCKET, "exports/32.json", "{\"v\":1}");
        put(BUCKET, "exports/33.json", "{\"v\":1}");
        DeletePlan plan = OWNER.adapter()
                .planDelete(new DeleteBatch(SPEC, "batch-etag", TestS3.serverCutoff(), List.of(key(32), key(33))));

        put(BUCKET, "exports/33.json", "{\"v\":2}");
        DeleteOutcome outcome = OWNER.adapter().executeDelete(plan);

        assertThat(plan.count(Action.DELETE_ROW)).isEqualTo(2);
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(exists(BUCKET, "exports/32.json")).isFalse();
        assertThat(TestS3.text(BUCKET, "exports/33.json")).contains("{\"v\":2}");
    }

    @Test
    void anIdenticalRewriteAfterTheCutoffIsNotDeletedThoughItsEtagIsTheSame() {
        put(BUCKET, "exports/34.json", "{\"v\":\"same\"}");
        CutoffTimestamp cutoff = TestS3.serverCutoff();
        DeletePlan plan = OWNER.adapter().planDelete(new DeleteBatch(SPEC, "batch-same", cutoff, List.of(key(34))));

        TestS3.awaitServerSecondAfter(cutoff);
        put(BUCKET, "exports/34.json", "{\"v\":\"same\"}");
        DeleteOutcome outcome = OWNER.adapter().executeDelete(plan);

        assertThat(plan.count(Action.DELETE_ROW)).isEqualTo(1);
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(exists(BUCKET, "exports/34.json")).isTrue();
    }

    @Test
    void anObjectDeletedByItsOwnerAfterThePlanCountsAsAbsent() {
        put(BUCKET, "exports/35.json", "{}");
        DeletePlan plan = OWNER.adapter()
                .planDelete(new DeleteBatch(SPEC, "batch-gone", TestS3.serverCutoff(), List.of(key(35))));

        TestS3.client().deleteObject(b -> b.bucket(BUCKET).key("exports/35.json"));
        DeleteOutcome outcome = OWNER.adapter().executeDelete(plan);

        assertThat(outcome.absent()).isEqualTo(1);
        assertThat(outcome.deleted()).isZero();
    }
}
