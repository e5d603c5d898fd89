package io.erasure.store.s3;

import static io.erasure.store.s3.TestS3.exists;
import static io.erasure.store.s3.TestS3.key;
import static io.erasure.store.s3.TestS3.put;
import static io.erasure.store.s3.TestS3.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A prefix template ({@code exports/{customer_id}/}): a row is every object under its prefix, and nothing else. */
class PrefixTemplateIT {

    private static final String BUCKET = "prefix-owner";
    private static final DatasetSpec SPEC = TestS3.spec("exports-by-prefix", "exports/{customer_id}/");

    @RegisterExtension
    static final TestS3.OwnerBucket OWNER = new TestS3.OwnerBucket(BUCKET, SPEC);

    @Test
    void deletingAPrefixRemovesEveryObjectUnderItAndNothingOutsideIt() {
        put(BUCKET, "exports/1/profile.json", "{\"name\":\"one\"}");
        put(BUCKET, "exports/1/orders/2024.csv", "id,total\n7,12.50\n");
        put(BUCKET, "exports/12/profile.json", "{\"name\":\"twelve\"}");
        put(BUCKET, "exports/1.json", "{\"sibling\":true}");
        put(BUCKET, "archive/exports/1/profile.json", "{\"archived\":true}");

        List<LiveRow> rows = OWNER.adapter().readRows(SPEC, List.of(key(1)));
        DeletePlan plan = OWNER.adapter()
                .planDelete(new DeleteBatch(SPEC, "batch-prefix", TestS3.serverCutoff(), List.of(key(1))));
        DeleteOutcome outcome = OWNER.adapter().executeDelete(plan);

        assertThat(rows)
                .singleElement()
                .satisfies(row -> assertThat(row.columns())
                        .extracting(c -> (Object) ((Map<?, ?>) c.value()).get("key"))
                        .containsExactly("exports/1/orders/2024.csv", "exports/1/profile.json"));
        assertThat(plan.statements())
                .extracting(PlannedStatement::text)
                .containsExactly(
                        "DELETE s3://prefix-owner/exports/1/orders/2024.csv IF-MATCH ?",
                        "DELETE s3://prefix-owner/exports/1/profile.json IF-MATCH ?");
        assertThat(outcome.deleted()).isEqualTo(1);
        assertThat(outcome.statements()).isEqualTo(2);
        assertThat(exists(BUCKET, "exports/1/profile.json")).isFalse();
        assertThat(exists(BUCKET, "exports/1/orders/2024.csv")).isFalse();
        assertThat(text(BUCKET, "exports/12/profile.json")).contains("{\"name\":\"twelve\"}");
        assertThat(text(BUCKET, "exports/1.json")).contains("{\"sibling\":true}");
        assertThat(text(BUCKET, "archive/exports/1/profile.json")).contains("{\"archived\":true}");

        List<DeletionRecord> records = TestS3.recordsOf(SPEC, rows, plan.batch().cutoff());
        RestoreOutcome restored = OWNER.adapter().restore(SPEC, records);

        assertThat(restored.count(RestoreOutcome.Status.RESTORED)).isEqualTo(1);
        assertThat(text(BUCKET, "exports/1/profile.json")).contains("{\"name\":\"one\"}");
        assertThat(text(BUCKET, "exports/1/orders/2024.csv")).contains("id,total\n7,12.50\n");
    }

    @Test
    void anObjectAddedUnderThePrefixAfterThePlanKeepsTheWholeRow() {
        put(BUCKET, "exports/8/profile.json", "{\"name\":\"eight\"}");
        DeletePlan plan = OWNER.adapter()
                .planDelete(new DeleteBatch(SPEC, "batch-added", TestS3.serverCutoff(), List.of(key(8))));

        put(BUCKET, "exports/8/late.json", "{\"written\":\"after the plan\"}");
        DeleteOutcome outcome = OWNER.adapter().executeDelete(plan);

        assertThat(outcome.deleted()).isZero();
        assertThat(outcome.skippedNewer()).isEqualTo(1);
        assertThat(exists(BUCKET, "exports/8/profile.json")).isTrue();
        assertThat(exists(BUCKET, "exports/8/late.json")).isTrue();
    }

    @Test
    void aPrefixHoldingMoreObjectsThanAllowedIsRefusedAndKept() {
        for (int i = 0; i < 4; i++) {
            put(BUCKET, "exports/7/part-" + i + ".json", "{}");
        }
        try (StoreAdapter bounded = TestS3.open(BUCKET, Map.of("max-objects-per-key", "3"))) {
            bounded.checkDataset(SPEC);

            assertThatThrownBy(() -> bounded.planDelete(
                            new DeleteBatch(SPEC, "batch-bounded", TestS3.serverCutoff(), List.of(key(7)))))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("s3://prefix-owner/exports/7/")
                    .hasMessageContaining("more than 3 objects")
                    .hasMessageContaining("max-objects-per-key");
        }
        assertThat(exists(BUCKET, "exports/7/part-3.json")).isTrue();
    }

    @Test
    void aKeyValueThatWouldReachIntoAnotherKeysPrefixIsRefused() {
        put(BUCKET, "exports/3/4/profile.json", "{}");

        assertThatThrownBy(() -> OWNER.adapter()
                        .planDelete(new DeleteBatch(SPEC, "batch-slash", TestS3.serverCutoff(), List.of(key("3/4")))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contain no '/'");
        assertThat(exists(BUCKET, "exports/3/4/profile.json")).isTrue();
    }
}
