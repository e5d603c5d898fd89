package io.erasure.model.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.run.RunId;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class S3LayoutTest {

    private static final RunId RUN = RunId.of("run-1");
    private static final BackupLocation ORDERS = S3Layout.defaultBackupLocation("orders", BackupFormat.JSONL_GZIP);

    @Test
    void backupKeys() {
        assertThat(S3Layout.backupsPrefix("orders")).isEqualTo("backups/orders/");
        assertThat(S3Layout.manifestKey(ORDERS, "20240131T020000Z"))
                .isEqualTo("backups/orders/20240131T020000Z/manifest.json");
        assertThat(S3Layout.partKey(ORDERS, "20240131T020000Z", 7))
                .isEqualTo("backups/orders/20240131T020000Z/part-00007.jsonl.gz");
        assertThat(S3Layout.partName(12345, BackupFormat.JSONL_ZSTD)).isEqualTo("part-12345.jsonl.zst");
        assertThat(S3Layout.partName(0, BackupFormat.CSV)).isEqualTo("part-00000.csv");
        assertThatThrownBy(() -> S3Layout.partName(100_000, BackupFormat.CSV))
                .hasMessage("part index must be between 0 and 99999, got 100000");
        assertThatThrownBy(() -> S3Layout.manifestKey(ORDERS, "latest"))
                .hasMessageStartingWith("snapshot must be a UTC time");
    }

    @Test
    void partIndexesParseBack() {
        assertThat(S3Layout.parsePartIndex("part-00042.csv")).isEqualTo(42);
        assertThat(S3Layout.parsePartIndex(S3Layout.partKey(ORDERS, "20240131T020000Z", 99_999)))
                .isEqualTo(99_999);
        assertThatThrownBy(() -> S3Layout.parsePartIndex("part-42.csv"))
                .hasMessageStartingWith("part name must look like");
        assertThatThrownBy(() -> S3Layout.parsePartIndex("part-00042.json"))
                .hasMessageStartingWith("part name must look like");
    }

    @Test
    void runKeys() {
        assertThat(S3Layout.runPrefix(RUN)).isEqualTo("runs/run-1/");
        assertThat(S3Layout.candidatesPrefix(RUN)).isEqualTo("runs/run-1/candidates/");
        assertThat(S3Layout.candidatesPartKey(RUN, 3)).isEqualTo("runs/run-1/candidates/part-00003.jsonl.gz");
        assertThat(S3Layout.finalPrefix(RUN)).isEqualTo("runs/run-1/final/");
        assertThat(S3Layout.finalPartKey(RUN, 0)).isEqualTo("runs/run-1/final/part-00000.jsonl.gz");
        assertThat(S3Layout.reportKey(RUN)).isEqualTo("runs/run-1/report.json");
        assertThat(S3Layout.receiptKey(RUN)).isEqualTo("runs/run-1/receipt.json");
    }

    @Test
    void retainedKeys() {
        String recordId = "a".repeat(64);
        assertThat(S3Layout.retainedPrefix("orders")).isEqualTo("retained/orders/");
        assertThat(S3Layout.retainedKey("orders", "run-1", recordId))
                .isEqualTo("retained/orders/run-1/" + recordId + ".json.gz");
        assertThatThrownBy(() -> S3Layout.retainedKey("orders", "../x", recordId))
                .hasMessageStartingWith("runOrRequestId must match");
    }

    @Test
    void snapshotNamesAreUtcAndSortInTimeOrder() {
        Instant at = Instant.parse("2024-01-31T02:03:04.999Z");
        assertThat(S3Layout.snapshotName(at)).isEqualTo("20240131T020304Z");
        assertThat(S3Layout.parseSnapshot("20240131T020304Z")).isEqualTo(Instant.parse("2024-01-31T02:03:04Z"));
        assertThat(S3Layout.snapshotName(Instant.parse("2023-12-31T23:59:59Z")))
                .isLessThan(S3Layout.snapshotName(Instant.parse("2024-01-01T00:00:00Z")));
    }

    @Test
    void malformedSnapshotsAreRefused() {
        for (String bad :
                new String[] {"2024-01-31T02:03:04Z", "20240231T020304Z", "20240131T250000Z", "20240131T020304", "x"}) {
            assertThatThrownBy(() -> S3Layout.parseSnapshot(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("snapshot must be a UTC time formatted yyyyMMdd'T'HHmmss'Z'");
        }
    }
}
