package io.erasure.deletion.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskOrderTest {

    private static final CutoffTimestamp CUTOFF = new CutoffTimestamp(1_700_000_000_000_000L);

    @Test
    void forwardDeletionsGoBeforeBacklogThenHigherPriorityFirst() {
        DeletionTask backlogLow = DeletionTask.forRun(RunId.of("run-a"), spec(2), keys(1), CUTOFF);
        DeletionTask backlogHigh = DeletionTask.forRun(RunId.of("run-b"), spec(8), keys(2), CUTOFF);
        DeletionTask forwardLow = DeletionTask.forward("req-1", spec(1), keys(3), CUTOFF, 1);
        List<DeletionTask> tasks = new ArrayList<>(List.of(backlogLow, backlogHigh, forwardLow));

        tasks.sort(TaskListener.FORWARD_FIRST);

        assertThat(tasks).containsExactly(forwardLow, backlogHigh, backlogLow);
    }

    private static List<Map<String, Object>> keys(long id) {
        return List.of(Map.of("id", id));
    }

    private static DatasetSpec spec(int priority) {
        return DatasetSpec.builder()
                .name("profiles")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("app")
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.1))
                .priority(priority)
                .ownerTeam("team")
                .build();
    }
}
