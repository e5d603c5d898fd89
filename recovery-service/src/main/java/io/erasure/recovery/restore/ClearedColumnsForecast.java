package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.spi.LiveRow;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * What restoring an anonymisation's record would do, told from the live row without writing (the dry-run of a
 * recovery). The record holds only the columns the anonymisation cleared, and its row was kept on purpose, so a live
 * row is no conflict in itself; the adapters put the columns back only where that overwrites nothing, and this
 * mirrors them:
 * <ul>
 *   <li>stores with per-cell write times (Cassandra's {@code CellRestorer}) decide per column: a cleared column that
 *       holds a value again is newer data ({@link Outcome#CONFLICT}); otherwise the cells are written at the cut-off
 *       + 1 µs, whether the row is there or not;</li>
 *   <li>stores where a conditional column stands in (PostgreSQL's {@code ColumnRestorer}) need the row, unwritten
 *       since the cut-off where it can tell, with every cleared column still null: a missing row is
 *       {@link Outcome#FAILED} (deleted after it was anonymised), a newer row or a value set again a
 *       {@link Outcome#CONFLICT}.</li>
 * </ul>
 */
final class ClearedColumnsForecast {

    /** An outcome and its detail (null when there is nothing to add). */
    record Forecast(Outcome outcome, String detail) {}

    static final String ROW_DELETED =
            "no row with this key: it was deleted after it was anonymised, and a restore does not"
                    + " put its cleared columns back without it; restore that delete's record first";

    private ClearedColumnsForecast() {}

    /**
     * @param live           the key's live row, or null when it has none
     * @param cellTimestamps the adapter reads per-cell write times ({@code StoreCapabilities.rowTimestamps})
     */
    static Forecast of(LoggedRecord record, LiveRow live, boolean cellTimestamps, DatasetSpec spec, Instant now) {
        boolean anyValue = record.columns().stream().anyMatch(column -> column.value() != null);
        if (cellTimestamps) {
            if (!anyValue) {
                return new Forecast(Outcome.RESTORABLE, "the cleared columns were null; nothing to put back");
            }
            if (RecoveryRunner.expired(record, spec, now)) {
                return new Forecast(
                        Outcome.EXPIRED, "every cleared column's TTL ran out since the clear at " + record.deletedAt());
            }
            if (live == null) {
                return new Forecast(
                        Outcome.RESTORABLE,
                        "no live row: the cleared cells are written at the cut-off + 1 µs,"
                                + " where a later delete of the row still hides them");
            }
            String setAgain = setAgain(record, live);
            return setAgain == null ? new Forecast(Outcome.RESTORABLE, null) : conflict(setAgain);
        }
        if (live == null) {
            return new Forecast(Outcome.FAILED, ROW_DELETED);
        }
        CutoffTimestamp cutoff = CutoffTimestamp.ofMicros(record.cutoffMicros());
        if (live.writtenAfter(cutoff)) {
            return new Forecast(
                    Outcome.CONFLICT,
                    "the row was written after the cut-off " + cutoff + "; a restore keeps it"
                            + " and puts no column back");
        }
        String missing = missingColumn(record, live);
        if (missing != null) {
            return new Forecast(
                    Outcome.FAILED,
                    "column '" + missing + "' of the record is not in the live row; the" + " table no longer has it");
        }
        String setAgain = setAgain(record, live);
        return setAgain == null ? new Forecast(Outcome.RESTORABLE, null) : conflict(setAgain);
    }

    private static Forecast conflict(String column) {
        return new Forecast(
                Outcome.CONFLICT,
                "cleared column '" + column + "' holds a value again (written after the"
                        + " anonymisation); a restore keeps it and puts no column back");
    }

    /** The first column the record holds that has a value in the live row now; null if none has. */
    private static String setAgain(LoggedRecord record, LiveRow live) {
        Map<String, ColumnValue> now = byName(live);
        return record.columns().stream()
                .map(ColumnValue::name)
                .filter(name -> now.containsKey(name) && now.get(name).value() != null)
                .findFirst()
                .orElse(null);
    }

    private static String missingColumn(LoggedRecord record, LiveRow live) {
        Map<String, ColumnValue> now = byName(live);
        return record.columns().stream()
                .map(ColumnValue::name)
                .filter(name -> !now.containsKey(name))
                .findFirst()
                .orElse(null);
    }

    private static Map<String, ColumnValue> byName(LiveRow live) {
        Map<String, ColumnValue> byName = new HashMap<>();
        live.columns().forEach(column -> byName.put(column.name(), column));
        return byName;
    }
}
