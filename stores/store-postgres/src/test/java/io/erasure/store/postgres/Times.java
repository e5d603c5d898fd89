package io.erasure.store.postgres;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.LiveRow;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Write times around one cut-off, and deletion records as the deletion service writes them. */
final class Times {

    /** Whole microseconds: PostgreSQL rounds finer instants. */
    static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MICROS);

    static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minusSeconds(600));
    /** Written before the cut-off: may be deleted. */
    static final OffsetDateTime BEFORE = OffsetDateTime.ofInstant(NOW.minusSeconds(3600), ZoneOffset.UTC);
    /** Written after the cut-off: must survive. */
    static final OffsetDateTime AFTER = OffsetDateTime.ofInstant(NOW.minusSeconds(60), ZoneOffset.UTC);

    private Times() {}

    /** One record per row read (subtree and child rows included), for the keys of one task. */
    static List<DeletionRecord> records(DatasetSpec spec, List<Map<String, Object>> keys, List<LiveRow> rows) {
        DeletionTask task = DeletionTask.forRun(RunId.of("run-pg"), spec, keys, CUTOFF);
        return rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
    }

    static List<Map<String, Object>> ids(long... ids) {
        return Arrays.stream(ids)
                .<Map<String, Object>>mapToObj(id -> Map.of("id", id))
                .toList();
    }
}
