package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.KeyHash;
import io.erasure.deletionlog.client.LogReader;
import io.erasure.deletionlog.client.LoggedRecord;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.recovery.RecoveryScope;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import io.erasure.support.stores.StoreAdapterPool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one recovery request: reads its records from the log a page at a time ({@link ScopeReader}), then either
 * reports what a restore would do (dry-run: restorable, conflict with a live row, expired, purged; nothing is written;
 * an anonymisation's record is judged by its columns in the live row, {@link ClearedColumnsForecast}) or restores
 * through the dataset's store adapter in throttled batches. The adapter never overwrites newer data:
 * Cassandra writes at the delete's cut-off + 1 µs with the remaining TTLs, relational stores insert
 * only where the key is absent. Outcomes and progress are stored after every batch, and each page is dropped
 * before the next is read: a recovery holds one page of records ({@code erasure.recovery.page-size}), not its run.
 *
 * <p>Before anything is restored, a census counts the scope's records from their headers (no payloads): the request's
 * total, and the size that picks the path. A Cassandra recovery of at least {@code erasure.recovery.bulk-threshold}
 * records of whole rows takes the bulk path instead ({@link BulkRestores}: SSTables, same rules, same outcomes); a
 * dry-run only reads either way. The bulk path gathers {@code erasure.recovery.bulk-batch-size} records per SSTable set
 * (each costs a writer JVM and an import), so it holds that many, not one page. The path taken is stored with the
 * request, and why a recovery of that size went online where the bulk path cannot run here (no SSTable writer, no
 * JMX): it restores online rather than fail. Records of an anonymisation are restored online on either path.
 */
public class RecoveryRunner {

    private static final Logger log = LoggerFactory.getLogger(RecoveryRunner.class);
    private static final int RETRIES = 5;

    /**
     * @param pageSize  records read from the log at a time (by keys: keys), at most {@link LogReader#MAX_PAGE}
     * @param batchSize records per adapter call (also bounded by the throttle's and the adapter's largest batch)
     */
    public record Sizes(int pageSize, int batchSize) {
        public Sizes {
            if (pageSize < 1 || pageSize > LogReader.MAX_PAGE) {
                throw new IllegalArgumentException("erasure.recovery.page-size must be between 1 and " + LogReader.MAX_PAGE
                        + ", got " + pageSize);
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("erasure.recovery.batch-size must be >= 1, got " + batchSize);
            }
        }
    }

    private final Supplier<LogReader> reader;
    private final StoreAdapterPool adapters;
    private final RecoveryStore store;
    private final RestoreThrottle throttle;
    private final BulkRestores bulk;
    private final RetainedRows retained;
    private final Clock clock;
    private final Sizes sizes;

    public RecoveryRunner(Supplier<LogReader> reader, StoreAdapterPool adapters, RecoveryStore store, RestoreThrottle throttle,
                          BulkRestores bulk, RetainedRows retained, Clock clock, Sizes sizes) {
        this.reader = reader;
        this.adapters = adapters;
        this.store = store;
        this.throttle = throttle;
        this.bulk = bulk;
        this.retained = retained;
        this.clock = clock;
        this.sizes = sizes;
    }

    public void run(UUID id, boolean dryRun) {
        try {
            RecoveryScope scope = store.scope(id);
            DatasetSpec spec = store.spec(id);
            ScopeReader scopes = new ScopeReader(reader.get(), sizes.pageSize());
            // by keys the total is the key count; the log is read first only where the bulk path could be taken
            ScopeReader.Census census = scope instanceof RecoveryScope.ByKeys byKeys
                    && bulk.pathFor(spec, byKeys.keys().size()) != RestorePath.BULK
                    ? ScopeReader.Census.ofKeys(byKeys.keys().size()) : scopes.census(scope, spec.name());
            BulkRestores.PathChoice choice = bulk.choose(spec, (int) Math.min(Integer.MAX_VALUE, census.wholeRows()));
            store.started(id, census.entries(), choice.path(), choice.reason(), clock.instant());

            Restoring restoring = new Restoring(id, spec, dryRun, choice.path() == RestorePath.BULK && !dryRun);
            scopes.forEachPage(scope, restoring::page);
            restoring.finish();
            if (restoring.entries != census.entries()) {
                // the log changed between the census and the read (records written, purged or expired meanwhile)
                store.counted(id, restoring.entries);
            }
            store.completed(id, clock.instant());
        } catch (RuntimeException e) {
            log.error("recovery {} failed", id, e);
            store.failed(id, String.valueOf(e.getMessage()), clock.instant());
        }
    }

    /** One recovery's progress through its pages: settles, assesses or restores each page, then lets it go. */
    private final class Restoring {
        private final UUID id;
        private final DatasetSpec spec;
        private final boolean dryRun;
        private final boolean bulkPath;
        /** Whole rows waiting for the next bulk restore, at most {@link BulkRestores#batchSize()} (bulk path only). */
        private final List<LoggedRecord> bulkBatch = new ArrayList<>();
        private StoreAdapter adapter;
        private int batchSize;
        private long entries;

        Restoring(UUID id, DatasetSpec spec, boolean dryRun, boolean bulkPath) {
            this.id = id;
            this.spec = spec;
            this.dryRun = dryRun;
            this.bulkPath = bulkPath;
        }

        void page(ScopeReader.Page page) {
            entries += page.records().size() + page.missingKeys().size();
            List<RecoveryItem> settled = new ArrayList<>();
            for (Map<String, Object> key : page.missingKeys()) {
                settled.add(new RecoveryItem("key:" + KeyHash.of(spec.name(), key), key, Outcome.NOT_IN_LOG,
                        "no deletion record in the log: never deleted, or older than the log's retention", null, null));
            }
            List<LoggedRecord> restorable = new ArrayList<>();
            for (LoggedRecord record : page.records()) {
                if (record.purged()) {
                    settled.add(item(record, Outcome.PURGED, "purged from the log; its contents cannot be read"));
                } else if (!record.dataset().equals(spec.name())) {
                    settled.add(item(record, Outcome.FAILED, "record of dataset '" + record.dataset() + "', but the request's"
                            + " spec is '" + spec.name() + "'; recover that dataset with its own spec"));
                } else {
                    restorable.add(record);
                }
            }
            if (!settled.isEmpty()) {
                store.recorded(id, settled);
            }
            if (bulkPath) {
                // An anonymisation's record holds only the columns it cleared, and its row is live on purpose. The bulk
                // path restores whole rows into absent keys (a live key is "newer data kept"), so it cannot put those
                // columns back: anonymisations always go online, where the adapter restores only the cleared columns.
                List<LoggedRecord> wholeRows = restorable.stream().filter(record -> !record.anonymised()).toList();
                bulkBatch.addAll(loaded(wholeRows));
                while (bulkBatch.size() >= bulk.batchSize()) {
                    flushBulk(bulk.batchSize());
                }
                online(restorable.stream().filter(LoggedRecord::anonymised).toList());
            } else {
                // a dry-run reads live state only, whichever path a restore would take
                online(restorable);
            }
        }

        void finish() {
            flushBulk(bulkBatch.size());
        }

        private void online(List<LoggedRecord> records) {
            if (records.isEmpty()) {
                return;
            }
            StoreAdapter target = adapter();
            for (int from = 0; from < records.size(); from += batchSize) {
                List<LoggedRecord> batch = loaded(records.subList(from, Math.min(records.size(), from + batchSize)));
                if (!batch.isEmpty()) {
                    store.recorded(id, dryRun ? assess(target, spec, batch) : restore(target, spec, batch));
                }
            }
        }

        private void flushBulk(int count) {
            if (count == 0) {
                return;
            }
            List<LoggedRecord> batch = bulkBatch.subList(0, count);
            store.recorded(id, bulkRestore(spec, batch));
            batch.clear();
        }

        /**
         * {@code records} with the columns of rows too large for a log message loaded from S3 (restored like any other
         * once loaded); a record whose retained columns cannot be read is settled as failed and left out.
         */
        private List<LoggedRecord> loaded(List<LoggedRecord> records) {
            List<LoggedRecord> loaded = new ArrayList<>(records.size());
            List<RecoveryItem> failed = new ArrayList<>();
            for (LoggedRecord record : records) {
                if (record.retainedRef() == null) {
                    loaded.add(record);
                    continue;
                }
                try {
                    loaded.add(retained.load(record));
                } catch (RetainedRows.Unavailable e) {
                    failed.add(item(record, Outcome.FAILED, e.getMessage()));
                }
            }
            if (!failed.isEmpty()) {
                store.recorded(id, failed);
            }
            return loaded;
        }

        private StoreAdapter adapter() {
            if (adapter == null) {
                adapter = adapters.checkedAdapter(spec);
                batchSize = Math.max(1, Math.min(sizes.batchSize(), Math.min(throttle.maxBatch(),
                        adapter.capabilities().maxBatch())));
            }
            return adapter;
        }
    }

    private List<RecoveryItem> assess(StoreAdapter adapter, DatasetSpec spec, List<LoggedRecord> batch) {
        Instant now = clock.instant();
        List<LoggedRecord> wholeRows = batch.stream().filter(record -> !record.anonymised()).toList();
        List<LoggedRecord> anonymisations = batch.stream().filter(LoggedRecord::anonymised).toList();
        List<LiveState> live = wholeRows.isEmpty() ? List.of()
                : retrying(() -> adapter.checkLiveState(spec, wholeRows.stream().map(LoggedRecord::primaryKey).toList()));
        boolean cellTimestamps = adapter.capabilities().rowTimestamps();
        Map<String, LiveRow> rows = new HashMap<>();
        List<LoggedRecord> liveWholeRows = new ArrayList<>();
        for (int i = 0; i < wholeRows.size(); i++) {
            if (cellTimestamps && live.get(i).present()) {
                liveWholeRows.add(wholeRows.get(i));
            }
        }
        if (!liveWholeRows.isEmpty()) {
            // a store with per-cell write times restores the cells that have no newer one into a live row
            retrying(() -> adapter.readRows(spec, liveWholeRows.stream().map(LoggedRecord::primaryKey).toList()))
                    .forEach(row -> rows.putIfAbsent(CanonicalKey.render(row.key()), row));
        }
        if (!anonymisations.isEmpty()) {
            // the columns' current values decide, not the row's presence: its row was kept on purpose
            retrying(() -> adapter.readRows(spec, anonymisations.stream().map(LoggedRecord::primaryKey).toList()))
                    .forEach(row -> rows.putIfAbsent(CanonicalKey.render(row.key()), row));
        }
        Map<String, RecoveryItem> byRecord = new HashMap<>();
        for (int i = 0; i < wholeRows.size(); i++) {
            LoggedRecord record = wholeRows.get(i);
            RecoveryItem item;
            if (expired(record, spec, now)) {
                item = item(record, Outcome.EXPIRED, "every column's TTL ran out since the delete at " + record.deletedAt());
            } else if (live.get(i).present() && cellTimestamps) {
                ClearedColumnsForecast.Forecast forecast = LiveRowForecast.of(record,
                        rows.get(CanonicalKey.render(record.primaryKey())), spec, now);
                item = item(record, forecast.outcome(), forecast.detail());
            } else if (live.get(i).present()) {
                item = item(record, Outcome.CONFLICT, "a live row exists (written after the delete); a restore keeps it");
            } else {
                item = item(record, Outcome.RESTORABLE, null);
            }
            byRecord.put(record.recordId(), item);
        }
        for (LoggedRecord record : anonymisations) {
            ClearedColumnsForecast.Forecast forecast = ClearedColumnsForecast.of(record,
                    rows.get(CanonicalKey.render(record.primaryKey())), cellTimestamps, spec, now);
            byRecord.put(record.recordId(), item(record, forecast.outcome(), forecast.detail()));
        }
        return batch.stream().map(record -> byRecord.get(record.recordId())).toList();
    }

    private List<RecoveryItem> restore(StoreAdapter adapter, DatasetSpec spec, List<LoggedRecord> batch) {
        List<DeletionRecord> records = batch.stream().map(LoggedRecord::toDeletionRecord).toList();
        throttle.acquire(spec.connectionRef(), records.size());
        // safe to repeat: what an earlier attempt restored now reports "already restored"
        RestoreOutcome outcome = retrying(() -> adapter.restore(spec, records));
        return items(batch, outcome);
    }

    private List<RecoveryItem> bulkRestore(DatasetSpec spec, List<LoggedRecord> batch) {
        List<DeletionRecord> records = batch.stream().map(LoggedRecord::toDeletionRecord).toList();
        long started = System.nanoTime();
        // safe to repeat, as online: what an earlier attempt imported now reports "already restored"
        RestoreOutcome outcome = retrying(() -> bulk.restore(spec, records));
        log.info("bulk restore of {} records of {}: {} restored in {} ms", records.size(), spec.name(),
                outcome.count(RestoreOutcome.Status.RESTORED), (System.nanoTime() - started) / 1_000_000);
        return items(batch, outcome);
    }

    private static List<RecoveryItem> items(List<LoggedRecord> batch, RestoreOutcome outcome) {
        List<RecoveryItem> items = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            RestoreOutcome.RecordOutcome result = outcome.records().get(i);
            items.add(item(batch.get(i), Outcome.valueOf(result.status().name()), result.detail()));
        }
        return items;
    }

    /** Mirrors the Cassandra adapter: a row whose every non-key value had a TTL that has run out since the delete. */
    static boolean expired(LoggedRecord record, DatasetSpec spec, Instant now) {
        long elapsed = Math.max(0, Duration.between(record.deletedAt(), now).toSeconds());
        boolean anyValue = false;
        for (ColumnValue column : record.columns()) {
            if (spec.keyColumns().isPrimaryKeyColumn(column.name()) || column.value() == null) {
                continue;
            }
            anyValue = true;
            if (column.ttlSeconds() == null || column.ttlSeconds() - elapsed > 0) {
                return false;
            }
        }
        return anyValue;
    }

    private static <T> T retrying(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (StoreException.Retriable e) {
                if (attempt >= RETRIES) {
                    throw e;
                }
                try {
                    Thread.sleep(Math.min(10_000L, 200L << attempt));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static RecoveryItem item(LoggedRecord record, Outcome outcome, String detail) {
        return new RecoveryItem(record.recordId(), record.primaryKey(), outcome, detail, record.deletedAt(), record.originId());
    }
}
