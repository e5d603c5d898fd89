package io.erasure.recovery.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.spi.LiveRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClearedColumnsForecastTest {

    private static final DatasetSpec SPEC = DatasetSpec.builder()
            .name("members")
            .storeKind(StoreKind.POSTGRES)
            .connectionRef("main")
            .namespace("app")
            .table("members")
            .keyColumns(KeyColumns.partitionOnly("id"))
            .identifierColumn("id")
            .identifierSource("customers")
            .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
            .backup(new BackupLocation("backups/members/", BackupFormat.JSONL_GZIP))
            .limits(DeletionLimits.fraction(0.5))
            .ownerTeam("team")
            .build();
    private static final long CUTOFF = 1_000_000_000L;
    private static final Instant NOW = Instant.ofEpochSecond(2_000);
    private static final Map<String, Object> KEY = Map.of("id", 1L);

    @Test
    void aRowWithItsClearedColumnsStillNullAndUnwrittenSinceIsRestorableEitherWay() {
        LiveRow row = row(CUTOFF - 5, ColumnValue.of("name", "kept"), ColumnValue.of("email", null));

        assertThat(outcome(anonymised("a@example.com"), row, false)).isEqualTo(Outcome.RESTORABLE);
        assertThat(outcome(anonymised("a@example.com"), row, true)).isEqualTo(Outcome.RESTORABLE);
    }

    @Test
    void aClearedColumnSetAgainIsAConflictEitherWay() {
        LiveRow row = row(CUTOFF - 5, ColumnValue.of("name", "kept"), ColumnValue.of("email", "new@example.com"));

        assertThat(outcome(anonymised("a@example.com"), row, false)).isEqualTo(Outcome.CONFLICT);
        assertThat(outcome(anonymised("a@example.com"), row, true)).isEqualTo(Outcome.CONFLICT);
    }

    @Test
    void aRowWrittenAfterTheCutoffIsAConflictOnlyWhereTheRowDecides() {
        LiveRow row = row(CUTOFF + 1, ColumnValue.of("name", "renamed"), ColumnValue.of("email", null));

        assertThat(outcome(anonymised("a@example.com"), row, false))
                .as("PostgreSQL: updated_at after the cut-off")
                .isEqualTo(Outcome.CONFLICT);
        assertThat(outcome(anonymised("a@example.com"), row, true))
                .as("Cassandra: only the cleared cells count")
                .isEqualTo(Outcome.RESTORABLE);
    }

    @Test
    void aMissingRowFailsWhereTheRowIsNeededAndIsWrittenCellByCellOtherwise() {
        ClearedColumnsForecast.Forecast relational =
                ClearedColumnsForecast.of(anonymised("a@example.com"), null, false, SPEC, NOW);

        assertThat(relational.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(relational.detail()).contains("deleted after it was anonymised");
        assertThat(outcome(anonymised("a@example.com"), null, true)).isEqualTo(Outcome.RESTORABLE);
    }

    @Test
    void aColumnTheTableNoLongerHasFailsWhereTheAdapterRefusesIt() {
        LiveRow row = row(CUTOFF - 5, ColumnValue.of("name", "kept"));

        assertThat(outcome(anonymised("a@example.com"), row, false)).isEqualTo(Outcome.FAILED);
    }

    @Test
    void anExpiredCellIsReportedExpired() {
        LoggedRecord record =
                record(List.of(new ColumnValue("email", "a@example.com", CUTOFF - 5, 60)), NOW.minusSeconds(120));

        assertThat(outcome(record, row(CUTOFF - 5, ColumnValue.of("email", null)), true))
                .isEqualTo(Outcome.EXPIRED);
    }

    private static Outcome outcome(LoggedRecord record, LiveRow live, boolean cellTimestamps) {
        return ClearedColumnsForecast.of(record, live, cellTimestamps, SPEC, NOW)
                .outcome();
    }

    private static LoggedRecord anonymised(String email) {
        return record(List.of(ColumnValue.of("email", email)), NOW.minusSeconds(60));
    }

    private static LoggedRecord record(List<ColumnValue> columns, Instant deletedAt) {
        return new LoggedRecord(
                "a".repeat(64),
                "members",
                "hash",
                deletedAt,
                null,
                "request-1",
                "task-1",
                "task-1-b0",
                CUTOFF,
                null,
                false,
                KEY,
                columns,
                true);
    }

    private static LiveRow row(long lastWriteMicros, ColumnValue... columns) {
        return new LiveRow(KEY, List.of(columns), lastWriteMicros);
    }
}
