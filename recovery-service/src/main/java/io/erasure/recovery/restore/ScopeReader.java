package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.LogPage;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.recovery.RecoveryScope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The records a recovery scope covers, read from the deletion log with their columns. Where a key was
 * deleted more than once in the scope, only its latest record is restored (restoring an older one first
 * would only make the newer one a conflict). Requested keys without a record are reported too.
 */
final class ScopeReader {

    private static final int PAGE = 500;

    /** What the log holds for a scope: records to act on (purged ones included) and requested keys it has no record of. */
    record Found(List<LoggedRecord> records, List<Map<String, Object>> missingKeys) {
    }

    private final LogReader reader;

    ScopeReader(LogReader reader) {
        this.reader = reader;
    }

    Found read(RecoveryScope scope) {
        if (scope instanceof RecoveryScope.ByKeys byKeys) {
            List<LoggedRecord> records = new ArrayList<>();
            List<Map<String, Object>> missing = new ArrayList<>();
            for (Map<String, Object> key : byKeys.keys()) {
                LogReader.KeyHistory history = reader.byKey(byKeys.dataset(), key, true);
                if (!history.records().isEmpty()) {
                    records.add(history.records().get(0)); // newest first
                } else {
                    missing.add(key);
                }
            }
            return new Found(records, missing);
        }
        List<LoggedRecord> all = new ArrayList<>();
        Function<String, LogPage> page;
        if (scope instanceof RecoveryScope.ByTimeWindow window) {
            page = cursor -> reader.window(window.dataset(), window.from(), window.to(), PAGE, cursor, true);
        } else {
            String run = ((RecoveryScope.ByRun) scope).runId().value();
            page = cursor -> reader.run(run, PAGE, cursor, true);
        }
        String cursor = null;
        do {
            LogPage next = page.apply(cursor);
            all.addAll(next.records());
            cursor = next.nextCursor();
        } while (cursor != null);
        return new Found(latestPerKey(all), List.of());
    }

    private static List<LoggedRecord> latestPerKey(List<LoggedRecord> records) {
        Map<String, LoggedRecord> latest = new LinkedHashMap<>();
        records.stream().sorted(Comparator.comparing(LoggedRecord::deletedAt)).forEach(record -> {
            // a purged record has no readable key: keep it under its id so it is reported
            String identity = record.purged() ? "purged|" + record.recordId()
                    : record.dataset() + "|" + CanonicalKey.render(record.primaryKey());
            latest.put(identity, record);
        });
        return new ArrayList<>(latest.values());
    }
}
