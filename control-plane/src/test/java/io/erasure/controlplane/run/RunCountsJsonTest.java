package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.StoreKind;
import io.erasure.support.json.PlatformJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The typed counts of a run are written as the maps they replaced were: the same keys with the same values, and the
 * keys that may be missing absent rather than null (the receipt and the API show {@code counts} as stored).
 */
class RunCountsJsonTest {

    private final JsonMapper json = PlatformJson.mapper();

    @Test
    void auditCountsKeepTheirKeys() {
        assertThat(tree(new AuditCounts("snap-1", 10, 4)))
                .isEqualTo(tree(Map.of("snapshot", "snap-1", "rowsScanned", 10, "candidates", 4)));
        assertThat(tree(new AuditCounts("snap-2", 10, 4, 3)))
                .as("a Cassandra backup's tombstones")
                .isEqualTo(
                        tree(Map.of("snapshot", "snap-2", "rowsScanned", 10, "candidates", 4, "deletedNotPurged", 3)));
    }

    @Test
    void validationCountsKeepTheirKeysWithTheOptionalOnesPresent() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("candidates", 5);
        expected.put("final", 3);
        expected.put("droppedByReason", Map.of("already_absent", 2));
        expected.put("finalSetPrefix", "final/run-1/");
        expected.put("exceedsLimit", true);
        expected.put("resurrected", 1);
        expected.put("resurrectedKey", "resurrected/run-1.jsonl");
        expected.put("finalSetDigest", "d".repeat(64));
        assertThat(tree(new ValidationCounts(
                        5,
                        3,
                        Map.of("already_absent", 2L),
                        "final/run-1/",
                        true,
                        1,
                        "resurrected/run-1.jsonl",
                        "d".repeat(64))))
                .isEqualTo(tree(expected));
    }

    @Test
    void validationCountsLeaveOutTheOptionalKeysWhenNull() {
        JsonNode written = tree(new ValidationCounts(0, 0, Map.of(), "final/run-1/", false, 0, null, null));
        assertThat(written)
                .isEqualTo(tree(Map.of(
                        "candidates",
                        0,
                        "final",
                        0,
                        "droppedByReason",
                        Map.of(),
                        "finalSetPrefix",
                        "final/run-1/",
                        "exceedsLimit",
                        false,
                        "resurrected",
                        0)));
        assertThat(written.has("resurrectedKey")).isFalse();
        assertThat(written.has(RunAuthorizer.FINAL_SET_DIGEST)).isFalse();
    }

    @Test
    void deletionCountsHaveCopiesOnlyForADatasetWithCopies() {
        BatchTotals totals = new BatchTotals(
                1, 3, 0, 0, 0, 0, new BatchTotals.ReadBacks(1, 0, 0), "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z");
        assertThat(tree(new DeletionCounts(totals, null))).isEqualTo(tree(Map.of("deletion", totals)));
        Map<String, CopyTotals> copies =
                Map.of("cache", new CopyTotals("ds--cache", StoreKind.REDIS, BatchTotals.NONE, List.of()));
        assertThat(tree(new DeletionCounts(totals, copies)))
                .isEqualTo(tree(Map.of("deletion", totals, "copies", copies)));
    }

    private JsonNode tree(Object value) {
        return json.readTree(json.writeValueAsString(value));
    }
}
