package io.erasure.recovery.reapply;

import io.erasure.deletionlog.client.LogPage;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.key.CanonicalKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Reads a dataset's erasures in a window from the deletion log (metadata and keys only, never the rows) and
 * groups their keys by original cut-off. Records of the dataset's copies ({@code <dataset>--<copy>}) are not
 * erasures to re-apply: deletion's own fan-out deletes the copies once the source rows go again.
 */
final class ErasureLogScan {

    private static final int PAGE = 1_000;

    /**
     * @param keysByCutoff each erased key once, under the latest cut-off it was deleted at (a later delete covers an
     *                     earlier one), ascending by cut-off
     * @param purged       records whose key was purged from the log: they cannot be re-applied
     */
    record Erasures(SortedMap<Long, List<Map<String, Object>>> keysByCutoff, long recordsRead, long purged) {
        long keys() {
            return keysByCutoff.values().stream().mapToLong(List::size).sum();
        }
    }

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
                latest.merge(CanonicalKey.render(record.primaryKey()), record,
                        (a, b) -> a.cutoffMicros() >= b.cutoffMicros() ? a : b);
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        SortedMap<Long, List<Map<String, Object>>> byCutoff = new TreeMap<>();
        latest.values().forEach(record -> byCutoff.computeIfAbsent(record.cutoffMicros(), c -> new ArrayList<>())
                .add(record.primaryKey()));
        return new Erasures(byCutoff, read, purged);
    }
}
