package io.erasure.deletion.execution;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;

/** The dataset the execution package's unit tests run their tasks on. */
final class ExecutionFixtures {

    private ExecutionFixtures() {}

    static DatasetSpec profiles() {
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
                .ownerTeam("team")
                .build();
    }
}
