package io.erasure.recovery.reapply;

import io.erasure.deletionlog.client.LogPage;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads a dataset's erasures in a window from the deletion log (metadata and keys only, never the rows) and keeps
 * each key's latest one (a later delete covers an earlier one). Records of the dataset's copies
 * ({@code <dataset>--<copy>}) are not erasures to re-apply: deletion's own fan-out deletes the copies once the
 * source rows go again.
 *
 * <p>An anonymisation kept its row and cleared some columns, and must be re-applied as exactly that: the columns'
 * names are only in the record's encrypted columns, so for those keys alone the key's history is read with columns
 * (in the log's multi-key reads) and the record found by its id. A key whose names cannot be read is skipped with the
 * reason, never deleted instead: deleting a row that was kept on purpose is the one thing a reapplication must not do.
 */
final class ErasureLogScan {

    private static final int PAGE = 1_000;

    /**
     * One key to erase again.
     *
     * @param clearColumns the columns an anonymisation cleared, sorted; empty for a whole-row delete
     * @param recordId     the deletion record of this erasure
     * @param originId     the run or request that erased it: the spec it froze is the one the erasure is re-applied
     *                     under
     */
    record Erasure(
            Map<String, Object> key, long cutoffMicros, List<String> clearColumns, String recordId, String originId) {
        Erasure {
            clearColumns = clearColumns.stream().sorted().toList();
        }

        Erasure(Map<String, Object> key, long cutoffMicros, List<String> clearColumns, String recordId) {
            this(key, cutoffMicros, clearColumns, recordId, null);
        }

        boolean anonymising() {
            return !clearColumns.isEmpty();
        }
    }

    /** A key whose latest erasure cannot be re-applied, and why. */
    record Skipped(Map<String, Object> key, String recordId, String reason) {}

    /**
     * @param erasures each erased key once, with its latest erasure
     * @param purged   records whose key was purged from the log: they cannot be re-applied
     * @param skipped  keys whose latest erasure is an anonymisation whose columns could not be read, or was recovered
     */
    record Erasures(List<Erasure> erasures, long recordsRead, long purged, List<Skipped> skipped) {
        Erasures {
            erasures = List.copyOf(erasures);
            skipped = List.copyOf(skipped);
        }

        long keys() {
            return erasures.size();
        }

        /** These erasures without those of {@code recordIds}, which become skipped for {@code reason}. */
        Erasures without(Set<String> recordIds, String reason) {
            if (recordIds.isEmpty()) {
                return this;
            }
            List<Erasure> kept = new ArrayList<>();
            List<Skipped> skippedToo = new ArrayList<>(skipped);
            for (Erasure erasure : erasures) {
                if (recordIds.contains(erasure.recordId())) {
                    skippedToo.add(new Skipped(erasure.key(), erasure.recordId(), reason));
                } else {
                    kept.add(erasure);
                }
            }
            return new Erasures(kept, recordsRead, purged, skippedToo);
        }
    }

    static final String PURGED = "the anonymisation's record was purged from the log since the window was read: the"
            + " columns it cleared cannot be read, and the row it kept is not deleted instead";
    static final String GONE = "the anonymisation's record is no longer in the log under its key (expired or purged):"
            + " the columns it cleared cannot be read, and the row it kept is not deleted instead";
    static final String RETAINED =
            "the anonymisation's cleared values are retained in S3, which a reapplication does not"
                    + " read: the columns it cleared are unknown here, and the row it kept is not deleted instead";

    static final String NO_FROZEN_SPEC = "the erasure's run or request froze no spec in the deletion log (logged before"
            + " frozen specs were kept, or expired): it is not deleted again under a guessed spec;"
            + " delete the key with a forward-deletion request or a run of the dataset";

    static final String RECOVERED = "recovered after erasure: a recovery restored this key from the erasure's record,"
            + " so the row is kept (a restored row can carry its old write time or updated_at, which the delete at the"
            + " original cut-off would take again)";

    private static final Comparator<LoggedRecord> LATEST = Comparator.comparingLong(LoggedRecord::cutoffMicros)
            .thenComparing(LoggedRecord::deletedAt)
            .thenComparing(LoggedRecord::recordId);

    private final Supplier<LogReader> reader;

    ErasureLogScan(Supplier<LogReader> reader) {
        this.reader = reader;
    }

    Erasures read(String dataset, ErasureWindow window) {
        Map<String, LoggedRecord> latest = new HashMap<>();
        long read = 0;
        long purged = 0;
        String cursor = null;
        do {
            LogPage page = reader.get().window(dataset, window.from(), window.to(), PAGE, cursor, false);
            for (LoggedRecord record : page.records()) {
                read++;
                if (!record.dataset().equals(dataset)) {
                    continue; // a copy's record: re-deleted by the fan-out of the source's tasks
                }
                if (record.purged()) {
                    purged++;
                    continue;
                }
                latest.merge(
                        CanonicalKey.render(record.primaryKey()), record, (a, b) -> LATEST.compare(a, b) >= 0 ? a : b);
            }
            cursor = page.nextCursor();
        } while (cursor != null);

        List<Erasure> erasures = new ArrayList<>(latest.size());
        List<Skipped> skipped = new ArrayList<>();
        List<LoggedRecord> anonymisations = new ArrayList<>();
        for (LoggedRecord record : latest.values()) {
            if (record.anonymised()) {
                anonymisations.add(record);
            } else {
                erasures.add(new Erasure(
                        record.primaryKey(), record.cutoffMicros(), List.of(), record.recordId(), record.originId()));
            }
        }
        for (int from = 0; from < anonymisations.size(); from += LogReader.MAX_PAGE) {
            List<LoggedRecord> part =
                    anonymisations.subList(from, Math.min(anonymisations.size(), from + LogReader.MAX_PAGE));
            List<Cleared> cleared = clearedColumns(dataset, part);
            for (int i = 0; i < part.size(); i++) {
                LoggedRecord record = part.get(i);
                if (cleared.get(i).columns() != null) {
                    erasures.add(new Erasure(
                            record.primaryKey(),
                            record.cutoffMicros(),
                            cleared.get(i).columns(),
                            record.recordId(),
                            record.originId()));
                } else {
                    skipped.add(new Skipped(
                            record.primaryKey(),
                            record.recordId(),
                            cleared.get(i).unreadable()));
                }
            }
        }
        return new Erasures(erasures, read, purged, skipped);
    }

    /** The names of the columns an anonymisation cleared, or why they cannot be read. */
    private record Cleared(List<String> columns, String unreadable) {}

    /**
     * The cleared columns of each of {@code anonymisations} (at most {@link LogReader#MAX_PAGE}, records of
     * {@code dataset}), in order: their keys' histories, with columns, read in the log's multi-key statements, each
     * record found by its id.
     */
    private List<Cleared> clearedColumns(String dataset, List<LoggedRecord> anonymisations) {
        List<LoggedRecord> readable = anonymisations.stream()
                .filter(record -> record.retainedRef() == null)
                .toList();
        List<LogReader.KeyHistory> histories = readable.isEmpty()
                ? List.of()
                : reader.get()
                        .byKeys(
                                dataset,
                                readable.stream().map(LoggedRecord::primaryKey).toList(),
                                true);
        List<Cleared> cleared = new ArrayList<>(anonymisations.size());
        int next = 0;
        for (LoggedRecord anonymisation : anonymisations) {
            cleared.add(
                    anonymisation.retainedRef() != null
                            ? new Cleared(null, RETAINED)
                            : clearedColumns(anonymisation, histories.get(next++)));
        }
        return cleared;
    }

    private static Cleared clearedColumns(LoggedRecord anonymisation, LogReader.KeyHistory history) {
        Optional<LoggedRecord> found = history.records().stream()
                .filter(record -> record.recordId().equals(anonymisation.recordId()))
                .findFirst();
        if (found.isEmpty()) {
            return new Cleared(null, history.purged() ? PURGED : GONE);
        }
        LoggedRecord record = found.get();
        if (record.purged() || record.columns() == null) {
            return new Cleared(null, PURGED);
        }
        if (record.retainedRef() != null || record.columns().isEmpty()) {
            return new Cleared(null, RETAINED);
        }
        return new Cleared(record.columns().stream().map(ColumnValue::name).toList(), null);
    }
}
