package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.spi.LiveRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What restoring a whole row's record into a key that has live data again would do, told from the live row without
 * writing (the dry-run of a recovery), for stores with per-cell write times (Cassandra's {@code Restorer}): each logged
 * cell is put back where the live cell is absent or older than the cut-off + 1 µs, a newer cell is kept. Stores
 * without them insert only where the key is absent, so a live row is a {@link Outcome#CONFLICT} there.
 */
final class LiveRowForecast {

    private LiveRowForecast() {}

    /** @param live the key's live row, or null if it vanished since its state was read */
    static ClearedColumnsForecast.Forecast of(LoggedRecord record, LiveRow live, DatasetSpec spec, Instant now) {
        if (live == null) {
            return new ClearedColumnsForecast.Forecast(Outcome.RESTORABLE, null);
        }
        long restoreTime = CutoffTimestamp.ofMicros(record.cutoffMicros()).restoreWriteTimeMicros();
        long elapsed = Math.max(0, Duration.between(record.deletedAt(), now).toSeconds());
        Map<String, ColumnValue> current = new HashMap<>();
        live.columns().forEach(column -> current.put(column.name(), column));
        List<String> restorable = new ArrayList<>();
        List<String> newer = new ArrayList<>();
        for (ColumnValue column : record.columns()) {
            if (spec.keyColumns().isPrimaryKeyColumn(column.name())
                    || column.value() == null
                    || (column.ttlSeconds() != null && column.ttlSeconds() - elapsed <= 0)) {
                continue;
            }
            ColumnValue liveColumn = current.get(column.name());
            Long liveWrite = liveColumn == null || liveColumn.value() == null ? null : liveColumn.writeTimeMicros();
            if (liveWrite == null || liveWrite < restoreTime) {
                restorable.add(column.name());
            } else {
                newer.add(column.name());
            }
        }
        int cells = restorable.size() + newer.size();
        if (restorable.isEmpty()) {
            return new ClearedColumnsForecast.Forecast(
                    Outcome.CONFLICT,
                    "a live row exists (written after the delete)"
                            + (newer.isEmpty()
                                    ? ""
                                    : " and every logged cell has a newer one (" + String.join(", ", newer) + ")")
                            + "; a restore keeps it");
        }
        return new ClearedColumnsForecast.Forecast(
                Outcome.RESTORABLE,
                "a live row exists: " + restorable.size() + " of "
                        + cells + " cells would be restored"
                        + (newer.isEmpty() ? "" : ", " + String.join(", ", newer) + " kept newer"));
    }
}
