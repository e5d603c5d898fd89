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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ReapplicationPlanTest {

    private static final DatasetSpec SPEC = DatasetSpec.builder()
            .name("profiles")
            .storeKind(StoreKind.CASSANDRA)
            .connectionRef("main")
            .namespace("app")
            .table("profiles")
            .keyColumns(KeyColumns.partitionOnly("id"))
            .identifierColumn("id")
            .identifierSource("customers")
            .conditionalColumn(ConditionalColumn.none())
            .backup(new BackupLocation("backups/profiles/", BackupFormat.JSONL_GZIP))
            .limits(DeletionLimits.fraction(0.5))
            .ownerTeam("team")
            .build();

    @Test
    void eachCutoffIsCutIntoTasksOfAtMostMaxKeysAtThatCutoff() {
        List<ErasureLogScan.Erasure> erasures = new ArrayList<>();
        keys(1, DeletionTask.MAX_KEYS + 1).forEach(key -> erasures.add(delete(key, 100L)));
        keys(5_000, 5_002).forEach(key -> erasures.add(delete(key, 200L)));
        ReapplicationPlan plan = ReapplicationPlan.of("reapply-x", SPEC, erasures(erasures));

        assertThat(plan.groups())
                .extracting(ReapplicationPlan.CutoffGroup::cutoffMicros)
                .containsExactly(100L, 200L);
        assertThat(plan.groups().get(0).tasks())
                .extracting(task -> task.keys().size())
                .containsExactly(DeletionTask.MAX_KEYS, 1);
        assertThat(plan.tasks()).allSatisfy(task -> {
            assertThat(task.requestId()).isEqualTo("reapply-x");
            assertThat(task.anonymising())
                    .as("whole-row deletions stay deletions")
                    .isFalse();
        });
        assertThat(plan.groups().get(1).tasks())
                .singleElement()
                .satisfies(task -> assertThat(task.cutoff().micros()).isEqualTo(200L));
        assertThat(ReapplicationPlan.of("reapply-x", SPEC, erasures(erasures)).tasks())
                .extracting(DeletionTask::taskId)
                .as("the same erasures give the same tasks")
                .isEqualTo(plan.tasks().stream().map(DeletionTask::taskId).toList());
    }

    @Test
    void anonymisationsAreGroupedByCutoffAndClearedColumnsAndNeverBecomeDeletes() {
        List<ErasureLogScan.Erasure> erasures = List.of(
                delete(key(1), 100L),
                anonymise(key(2), 100L, "phone", "email"),
                anonymise(key(3), 100L, "email", "phone"),
                anonymise(key(4), 100L, "email"),
                anonymise(key(5), 200L, "email"),
                delete(key(6), 200L));

        ReapplicationPlan plan = ReapplicationPlan.of("reapply-x", SPEC, erasures(erasures));

        assertThat(plan.groups())
                .extracting(group -> group.cutoffMicros() + ":" + group.clearColumns() + ":"
                        + group.keys().stream().map(key -> key.get("id")).toList())
                .as("per cut-off: the delete first, then anonymisations by their columns (in any order in the record)")
                .containsExactly(
                        "100:[]:[1]", "100:[email]:[4]", "100:[email, phone]:[2, 3]", "200:[]:[6]", "200:[email]:[5]");
        for (ReapplicationPlan.CutoffGroup group : plan.groups()) {
            assertThat(group.tasks()).singleElement().satisfies(task -> {
                assertThat(task.clearColumns())
                        .as("the task clears exactly the group's columns")
                        .containsExactlyInAnyOrderElementsOf(group.clearColumns());
                assertThat(task.anonymising()).isEqualTo(!group.clearColumns().isEmpty());
                assertThat(task.cutoff().micros()).isEqualTo(group.cutoffMicros());
                assertThat(task.keys()).isEqualTo(group.keys());
            });
        }
        assertThat(plan.tasks())
                .extracting(DeletionTask::taskId)
                .as("a delete and an anonymisation differ")
                .doesNotHaveDuplicates();
        List<ErasureLogScan.Erasure> reordered = new ArrayList<>(erasures);
        Collections.reverse(reordered);
        assertThat(ReapplicationPlan.of("reapply-x", SPEC, erasures(reordered)).tasks())
                .extracting(DeletionTask::taskId)
                .as("deterministic, whatever order the log gave")
                .isEqualTo(plan.tasks().stream().map(DeletionTask::taskId).toList());
        assertThat(ReapplicationPlan.of("reapply-x", SPEC, erasures(List.of(delete(key(2), 100L))))
                        .tasks()
                        .get(0)
                        .taskId())
                .as("deleting key 2 would be another task than anonymising it")
                .isNotIn(plan.tasks().stream().map(DeletionTask::taskId).toList());
    }

    @Test
    void aClearedColumnThatIsAKeyColumnOfTheGivenSpecIsRefused() {
        assertThatThrownBy(() ->
                        ReapplicationPlan.of("reapply-x", SPEC, erasures(List.of(anonymise(key(1), 100L, "id")))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key column");
    }

    @Test
    void theOriginIdDependsOnDatasetScopeAndTheCallersRequestId() {
        String id = ReapplicationPlan.requestIdFor("profiles", "window:retention..now", "restore-1");

        assertThat(id)
                .startsWith("reapply-")
                .isEqualTo(ReapplicationPlan.requestIdFor("profiles", "window:retention..now", "restore-1"));
        assertThat(id)
                .isNotEqualTo(ReapplicationPlan.requestIdFor("profiles", "window:retention..now", "restore-2"))
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
        assertThatThrownBy(() ->
                        new ReapplicationRequest("profiles", SPEC, now, null, "20240101T000000Z", true, null, "r"))
                .hasMessageContaining("snapshot and from/to");
        assertThatThrownBy(() -> new ReapplicationRequest("profiles", SPEC, null, null, "yesterday", true, null, "r"))
                .hasMessageContaining("snapshot");
        assertThatThrownBy(() -> new ReapplicationRequest("profiles", SPEC, null, null, null, false, null, "r"))
                .hasMessageContaining("requestId");
        assertThat(new ReapplicationRequest("profiles", SPEC, null, null, null, null, null, "r").dryRun())
                .as("a dry-run unless asked otherwise")
                .isTrue();
    }

    private static ErasureLogScan.Erasures erasures(List<ErasureLogScan.Erasure> erasures) {
        return new ErasureLogScan.Erasures(erasures, erasures.size(), 0, List.of());
    }

    private static ErasureLogScan.Erasure delete(Map<String, Object> key, long cutoff) {
        return new ErasureLogScan.Erasure(key, cutoff, List.of(), "record-" + key);
    }

    private static ErasureLogScan.Erasure anonymise(Map<String, Object> key, long cutoff, String... columns) {
        return new ErasureLogScan.Erasure(key, cutoff, List.of(columns), "record-" + key);
    }

    private static Map<String, Object> key(long id) {
        return Map.of("id", id);
    }

    private static List<Map<String, Object>> keys(long fromInclusive, long toInclusive) {
        return LongStream.rangeClosed(fromInclusive, toInclusive)
                .mapToObj(id -> Map.<String, Object>of("id", id))
                .toList();
    }
}
