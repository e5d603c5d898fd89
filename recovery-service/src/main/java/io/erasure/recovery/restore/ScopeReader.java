package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.HeaderPage;
import io.erasure.deletionlog.client.KeyHash;
import io.erasure.deletionlog.client.LogPage;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.deletionlog.client.RecordHeader;
import io.erasure.model.recovery.RecoveryScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The records a recovery scope covers, read from the deletion log with their columns one page at a time: the caller
 * acts on a page and drops it before the next is read, so a recovery holds one page, however large its run or window.
 * Where a key was deleted more than once in the scope, only its latest record is restored (restoring an older one
 * first would only make the newer one a conflict). Requested keys without a record are reported too.
 *
 * <ul>
 *   <li>By keys: {@code pageSize} keys per page, read in the log's multi-key statements ({@link LogReader#byKeys});
 *       each key's newest record.</li>
 *   <li>By run: the run's records as the log pages them. A record's id is a hash of (run, dataset, key), so a run
 *       holds one record per key of a dataset: there is no older one to leave out.</li>
 *   <li>By time window: oldest first, as the log pages them. A key deleted again later in the window may have its
 *       latest record pages ahead, so each page asks the log for its keys' headers ({@link LogReader#headersByKey},
 *       no payloads) and keeps a record only if it is its key's latest readable one in the window.</li>
 * </ul>
 * A {@link #census} counts the same records from their headers alone, before anything is restored: the request's
 * total and the size the restore path is chosen by.
 */
final class ScopeReader {

    /** Latest in the window's order: by deletion time, then record id (the order the log pages a window in). */
    private static final Comparator<RecordHeader> LATEST =
            Comparator.comparing(RecordHeader::deletedAt).thenComparing(RecordHeader::recordId);

    /**
     * One page of a scope: records to act on (purged ones included) and requested keys the log has no record of;
     * {@code dataset} the scope's (null by run).
     */
    record Page(String dataset, List<LoggedRecord> records, List<Map<String, Object>> missingKeys) {}

    /**
     * What a scope holds, counted from headers: {@code entries} (records to act on and requested keys without one: the
     * outcomes the recovery will store) and {@code wholeRows} (readable records of {@code dataset} that delete whole
     * rows, what the bulk path restores).
     */
    record Census(long entries, long wholeRows) {
        /** A recovery by keys that no size could send to the bulk path: one entry per key, nothing to read. */
        static Census ofKeys(int keys) {
            return new Census(keys, 0);
        }
    }

    private final LogReader reader;
    private final int pageSize;

    /** @param pageSize records (or, by keys, keys) per page, at most {@link LogReader#MAX_PAGE} */
    ScopeReader(LogReader reader, int pageSize) {
        if (pageSize < 1 || pageSize > LogReader.MAX_PAGE) {
            throw new IllegalArgumentException(
                    "page size must be between 1 and " + LogReader.MAX_PAGE + ", got " + pageSize);
        }
        this.reader = reader;
        this.pageSize = pageSize;
    }

    /** Reads {@code scope} page by page, handing each to {@code handler} before the next is read. */
    void forEachPage(RecoveryScope scope, Consumer<Page> handler) {
        if (scope instanceof RecoveryScope.ByKeys byKeys) {
            List<Map<String, Object>> keys = byKeys.keys();
            for (int from = 0; from < keys.size(); from += pageSize) {
                List<LoggedRecord> records = new ArrayList<>();
                List<Map<String, Object>> missing = new ArrayList<>();
                for (LogReader.KeyHistory history : reader.byKeys(
                        byKeys.dataset(), keys.subList(from, Math.min(keys.size(), from + pageSize)), true)) {
                    if (history.records().isEmpty()) {
                        missing.add(history.key());
                    } else {
                        records.add(history.records().get(0)); // newest first
                    }
                }
                handler.accept(new Page(byKeys.dataset(), records, missing));
            }
        } else if (scope instanceof RecoveryScope.ByTimeWindow window) {
            eachPage(
                    cursor -> reader.window(window.dataset(), window.from(), window.to(), pageSize, cursor, true),
                    LogPage::nextCursor,
                    page -> handler.accept(
                            new Page(window.dataset(), latestInWindow(window, page.records()), List.of())));
        } else {
            String run = ((RecoveryScope.ByRun) scope).runId().value();
            eachPage(
                    cursor -> reader.run(run, pageSize, cursor, true),
                    LogPage::nextCursor,
                    page -> handler.accept(new Page(null, page.records(), List.of())));
        }
    }

    /** Counts what {@link #forEachPage} will hand over, from headers only (nothing is decrypted), page by page. */
    Census census(RecoveryScope scope, String dataset) {
        long[] entries = {0};
        long[] wholeRows = {0};
        Consumer<RecordHeader> count = header -> {
            entries[0]++;
            if (!header.purged() && !header.anonymised() && header.dataset().equals(dataset)) {
                wholeRows[0]++;
            }
        };
        if (scope instanceof RecoveryScope.ByKeys byKeys) {
            List<Map<String, Object>> keys = byKeys.keys();
            for (int from = 0; from < keys.size(); from += pageSize) {
                List<String> hashes = keys.subList(from, Math.min(keys.size(), from + pageSize)).stream()
                        .map(key -> KeyHash.of(byKeys.dataset(), key))
                        .toList();
                Map<String, List<RecordHeader>> headers = reader.headersByKey(byKeys.dataset(), hashes);
                for (String hash : hashes) {
                    List<RecordHeader> history = headers.getOrDefault(hash, List.of());
                    if (history.isEmpty()) {
                        entries[0]++;
                    } else {
                        count.accept(history.get(0));
                    }
                }
            }
        } else if (scope instanceof RecoveryScope.ByTimeWindow window) {
            eachPage(
                    cursor -> reader.windowHeaders(window.dataset(), window.from(), window.to(), pageSize, cursor),
                    HeaderPage::nextCursor,
                    page -> latestInWindow(
                                    window,
                                    page.headers(),
                                    RecordHeader::purged,
                                    RecordHeader::keyHash,
                                    RecordHeader::recordId)
                            .forEach(count));
        } else {
            String run = ((RecoveryScope.ByRun) scope).runId().value();
            eachPage(
                    cursor -> reader.runHeaders(run, pageSize, cursor),
                    HeaderPage::nextCursor,
                    page -> page.headers().forEach(count));
        }
        return new Census(entries[0], wholeRows[0]);
    }

    private List<LoggedRecord> latestInWindow(RecoveryScope.ByTimeWindow window, List<LoggedRecord> records) {
        return latestInWindow(window, records, LoggedRecord::purged, LoggedRecord::keyHash, LoggedRecord::recordId);
    }

    /**
     * {@code records} without those whose key has a later readable record in the window. A purged record has no
     * readable key to compare: it is kept, and reported.
     */
    private <T> List<T> latestInWindow(
            RecoveryScope.ByTimeWindow window,
            List<T> records,
            Function<T, Boolean> purged,
            Function<T, String> keyHash,
            Function<T, String> recordId) {
        List<String> hashes = records.stream()
                .filter(record -> !purged.apply(record))
                .map(keyHash)
                .distinct()
                .toList();
        if (hashes.isEmpty()) {
            return records;
        }
        Map<String, List<RecordHeader>> histories = reader.headersByKey(window.dataset(), hashes);
        List<T> latest = new ArrayList<>(records.size());
        for (T record : records) {
            if (purged.apply(record)) {
                latest.add(record);
                continue;
            }
            Optional<RecordHeader> newest = histories.getOrDefault(keyHash.apply(record), List.of()).stream()
                    .filter(header -> !header.purged() && inWindow(header.deletedAt(), window))
                    .max(LATEST);
            // a key whose history is gone since its page was read (purged, expired) keeps the record it came with
            if (newest.isEmpty() || newest.get().recordId().equals(recordId.apply(record))) {
                latest.add(record);
            }
        }
        return latest;
    }

    private static boolean inWindow(Instant deletedAt, RecoveryScope.ByTimeWindow window) {
        return !deletedAt.isBefore(window.from()) && deletedAt.isBefore(window.to());
    }

    /** Reads pages from {@code read} (a cursor to a page) until the last, handing each on as it comes. */
    private static <P> void eachPage(Function<String, P> read, Function<P, String> next, Consumer<P> handler) {
        String cursor = null;
        do {
            P page = read.apply(cursor);
            handler.accept(page);
            cursor = next.apply(page);
        } while (cursor != null);
    }
}
