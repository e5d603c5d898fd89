package io.erasure.recovery.reapply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.task.DeletionTask;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ReapplicationPlanTest {

    private static final DatasetSpec SPEC = DatasetSpec.builder().name("profiles").storeKind(StoreKind.CASSANDRA)
            .connectionRef("main").namespace("app").table("profiles").keyColumns(KeyColumns.partitionOnly("id"))
            .identifierColumn("id").identifierSource("customers").conditionalColumn(ConditionalColumn.none())
            .backup(new BackupLocation("backups/profiles/", BackupFormat.JSONL_GZIP)).limits(DeletionLimits.fraction(0.5))
            .ownerTeam("team").build();

    @Test
    void eachCutoffIsCutIntoTasksOfAtMostMaxKeysAtThatCutoff() {
        TreeMap<Long, List<Map<String, Object>>> byCutoff = new TreeMap<>();
        byCutoff.put(100L, keys(1, DeletionTask.MAX_KEYS + 1));
        byCutoff.put(200L, keys(5_000, 5_002));
        ReapplicationPlan plan = ReapplicationPlan.of("reapply-x", SPEC, new ErasureLogScan.Erasures(byCutoff, 10, 0));

        assertThat(plan.groups()).extracting(ReapplicationPlan.CutoffGroup::cutoffMicros).containsExactly(100L, 200L);
        assertThat(plan.groups().get(0).tasks()).extracting(task -> task.keys().size())
                .containsExactly(DeletionTask.MAX_KEYS, 1);
        assertThat(plan.tasks()).allSatisfy(task -> assertThat(task.requestId()).isEqualTo("reapply-x"));
        assertThat(plan.groups().get(1).tasks()).singleElement()
                .satisfies(task -> assertThat(task.cutoff().micros()).isEqualTo(200L));
        assertThat(ReapplicationPlan.of("reapply-x", SPEC, new ErasureLogScan.Erasures(byCutoff, 10, 0)).tasks())
                .extracting(DeletionTask::taskId).as("the same erasures give the same tasks")
                .isEqualTo(plan.tasks().stream().map(DeletionTask::taskId).toList());
    }

    @Test
    void theOriginIdDependsOnDatasetScopeAndTheCallersRequestId() {
        String id = ReapplicationPlan.requestIdFor("profiles", "window:retention..now", "restore-1");

        assertThat(id).startsWith("reapply-").isEqualTo(ReapplicationPlan.requestIdFor("profiles", "window:retention..now",
                "restore-1"));
        assertThat(id).isNotEqualTo(ReapplicationPlan.requestIdFor("profiles", "window:retention..now", "restore-2"))
                .isNotEqualTo(ReapplicationPlan.requestIdFor("profiles", "snapshot:20240101T000000Z", "restore-1"))
                .isNotEqualTo(ReapplicationPlan.requestIdFor("accounts", "window:retention..now", "restore-1"));
    }

    @Test
    void aRequestNamesTheFieldItGetsWrong() {
        Instant now = Instant.now();
        assertThatThrownBy(() -> new ReapplicationRequest("accounts", SPEC, null, null, null, true, null, "r"))
                .hasMessageContaining("spec.name");
        assertThatThrownBy(() -> new ReapplicationRequest("profiles", SPEC, now, now, null, true, null, "r"))
                .hasMessageContaining("from must be before to");
        assertThatThrownBy(() -> new ReapplicationRequest("profiles", SPEC, now, null, "20240101T000000Z", true, null, "r"))
                .hasMessageContaining("snapshot and from/to");
        assertThatThrownBy(() -> new ReapplicationRequest("profiles", SPEC, null, null, "yesterday", true, null, "r"))
                .hasMessageContaining("snapshot");
        assertThatThrownBy(() -> new ReapplicationRequest("profiles", SPEC, null, null, null, false, null, "r"))
                .hasMessageContaining("requestId");
        assertThat(new ReapplicationRequest("profiles", SPEC, null, null, null, null, null, "r").dryRun())
                .as("a dry-run unless asked otherwise").isTrue();
    }

    private static List<Map<String, Object>> keys(long fromInclusive, long toInclusive) {
        return LongStream.rangeClosed(fromInclusive, toInclusive).mapToObj(id -> Map.<String, Object>of("id", id)).toList();
    }
}
