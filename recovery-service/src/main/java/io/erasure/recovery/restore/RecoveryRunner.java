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
 * Runs one recovery request: reads its records from the log, then either reports what a restore would
 * do (dry-run: restorable, conflict with a live row, expired, purged; nothing is written; an anonymisation's record
 * is judged by its columns in the live row, {@link ClearedColumnsForecast}) or restores
 * through the dataset's store adapter in throttled batches. The adapter never overwrites newer data:
 * Cassandra writes at the delete's cut-off + 1 µs with the remaining TTLs, relational stores insert
 * only where the key is absent. Outcomes and progress are stored after every batch.
 *
 * <p>A Cassandra recovery of at least {@code erasure.recovery.bulk-threshold} records takes the bulk path
 * instead ({@link BulkRestores}: SSTables, same rules, same outcomes); a dry-run only reads either way. The
 * path taken is stored with the request, and why a recovery of that size went online where the bulk path cannot run
 * here (no SSTable writer, no JMX): it restores online rather than fail. Records of an anonymisation are restored
 * online on either path.
 */
public class RecoveryRunner {

    private static final Logger log = LoggerFactory.getLogger(RecoveryRunner.class);
    private static final int RETRIES = 5;

    private final Supplier<LogReader> reader;
    private final StoreAdapterPool adapters;
    private final RecoveryStore store;
    private final RestoreThrottle throttle;
    private final BulkRestores bulk;
    private final RetainedRows retained;
    private final Clock clock;
    private final int batchSize;

    public RecoveryRunner(Supplier<LogReader> reader, StoreAdapterPool adapters, RecoveryStore store, RestoreThrottle throttle,
                          BulkRestores bulk, RetainedRows retained, Clock clock, int batchSize) {
        this.reader = reader;
        this.adapters = adapters;
        this.store = store;
        this.throttle = throttle;
        this.bulk = bulk;
        this.retained = retained;
        this.clock = clock;
        this.batchSize = Math.max(1, Math.min(batchSize, throttle.maxBatch()));
    }

    public void run(UUID id, boolean dryRun) {
        try {
            RecoveryScope scope = store.scope(id);
            DatasetSpec spec = store.spec(id);
            ScopeReader.Found found = new ScopeReader(reader.get()).read(scope);

            List<RecoveryItem> settled = new ArrayList<>();
            for (Map<String, Object> key : found.missingKeys()) {
                settled.add(new RecoveryItem("key:" + KeyHash.of(spec.name(), key), key, Outcome.NOT_IN_LOG,
                        "no deletion record in the log: never deleted, or older than the log's retention", null, null));
            }
            List<LoggedRecord> restorable = new ArrayList<>();
            for (LoggedRecord record : found.records()) {
                if (record.purged()) {
                    settled.add(item(record, Outcome.PURGED, "purged from the log; its contents cannot be read"));
                } else if (!record.dataset().equals(spec.name())) {
                    settled.add(item(record, Outcome.FAILED, "record of dataset '" + record.dataset() + "', but the request's"
                            + " spec is '" + spec.name() + "'; recover that dataset with its own spec"));
                } else if (record.retainedRef() != null) {
                    // a row too large for a log message: its columns are in S3, restored like any other once loaded
                    try {
                        restorable.add(retained.load(record));
                    } catch (RetainedRows.Unavailable e) {
                        settled.add(item(record, Outcome.FAILED, e.getMessage()));
                    }
                } else {
                    restorable.add(record);
                }
            }
            // An anonymisation's record holds only the columns it cleared, and its row is live on purpose. The bulk path
            // restores whole rows into absent keys (a live key is "newer data kept"), so it cannot put those columns back:
            // anonymisations always go online, where the adapter restores only the cleared columns.
            List<LoggedRecord> wholeRows = restorable.stream().filter(record -> !record.anonymised()).toList();
            List<LoggedRecord> anonymisations = restorable.stream().filter(LoggedRecord::anonymised).toList();
            BulkRestores.PathChoice choice = bulk.choose(spec, wholeRows.size());
            RestorePath path = choice.path();
            store.started(id, found.records().size() + found.missingKeys().size(), path, choice.reason(), clock.instant());
            store.recorded(id, settled);

            StoreAdapter adapter = restorable.isEmpty() ? null : adapters.checkedAdapter(spec);
            if (path == RestorePath.BULK && !dryRun) {
                for (int from = 0; from < wholeRows.size(); from += bulk.batchSize()) {
                    List<LoggedRecord> batch = wholeRows.subList(from, Math.min(wholeRows.size(), from + bulk.batchSize()));
                    store.recorded(id, bulkRestore(spec, batch));
                }
                for (int from = 0; from < anonymisations.size(); from += batchSize) {
                    List<LoggedRecord> batch = anonymisations.subList(from, Math.min(anonymisations.size(), from + batchSize));
                    store.recorded(id, restore(adapter, spec, batch));
                }
            } else {
                // a dry-run reads live state only, whichever path a restore would take
                for (int from = 0; from < restorable.size(); from += batchSize) {
                    List<LoggedRecord> batch = restorable.subList(from, Math.min(restorable.size(), from + batchSize));
                    store.recorded(id, dryRun ? assess(adapter, spec, batch) : restore(adapter, spec, batch));
                }
            }
            store.completed(id, clock.instant());
        } catch (RuntimeException e) {
            log.error("recovery {} failed", id, e);
            store.failed(id, String.valueOf(e.getMessage()), clock.instant());
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
