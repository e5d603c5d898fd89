package io.erasure.recovery.restore;

import io.erasure.deletionlog.client.FrozenSpec;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

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
 *
 * <p>A run's records come from the log in record-id order, not parents first: a child row (a PostgreSQL child table's,
 * a tree's) can come pages before its parent. A row an adapter reports PARENT_MISSING is not settled then; its outcome
 * is held (key and ids, not the record) and, once every page has been through, the scope is read again and only those
 * rows are tried again, pass after pass while a pass restores any (a grandchild may need its child's pass). What a
 * pass that restores none still finds refused is settled FAILED: its parent never came back ({@link ParentlessRows}).
 *
 * <p>Every record is restored under the spec its own run or request deleted it under, frozen in the deletion log
 * ({@link FrozenSpecGuard}): a window of a dataset can hold records of runs under two revisions of its spec, and a
 * run's records of a copy restore under the copy's view that run froze. The recovery is sized and routed (census, bulk
 * path) by the run's own frozen spec, or the dataset's latest revision; only records under that spec take the bulk
 * path. Nothing is restored under a spec a caller sent, nor under a guess for a record whose origin froze none.
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
                throw new IllegalArgumentException(
                        "erasure.recovery.page-size must be between 1 and " + LogReader.MAX_PAGE + ", got " + pageSize);
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
    private final FrozenSpecGuard frozenSpecs;
    private final JsonMapper json;

    public RecoveryRunner(
            Supplier<LogReader> reader,
            StoreAdapterPool adapters,
            RecoveryStore store,
            RestoreThrottle throttle,
            BulkRestores bulk,
            RetainedRows retained,
            Clock clock,
            Sizes sizes,
            FrozenSpecGuard frozenSpecs,
            JsonMapper json) {
        this.reader = reader;
        this.frozenSpecs = frozenSpecs;
        this.json = json;
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
            ScopeReader scopes = new ScopeReader(reader.get(), sizes.pageSize());
            // sized and routed by the run's (or the dataset's latest) frozen spec; each record restores under its own
            DatasetSpec spec;
            try {
                spec = frozenSpecs.primary(scope, null);
            } catch (FrozenSpecGuard.NoFrozenSpec e) {
                if (scope instanceof RecoveryScope.ByRun
                        && scopes.census(scope, "").entries() == 0) {
                    // a run that deleted nothing (it failed before deleting, or found nothing left): nothing to restore
                    store.started(id, null, 0, RestorePath.ONLINE, null, clock.instant());
                    store.completed(id, clock.instant());
                    return;
                }
                throw e;
            }
            // by keys the total is the key count; the log is read first only where the bulk path could be taken
            ScopeReader.Census census = scope instanceof RecoveryScope.ByKeys byKeys
                            && bulk.pathFor(spec, byKeys.keys().size()) != RestorePath.BULK
                    ? ScopeReader.Census.ofKeys(byKeys.keys().size())
                    : scopes.census(scope, spec.name());
            BulkRestores.PathChoice choice = bulk.choose(spec, (int) Math.min(Integer.MAX_VALUE, census.wholeRows()));
            store.started(id, spec.name(), census.entries(), choice.path(), choice.reason(), clock.instant());

            Restoring restoring = new Restoring(id, spec, dryRun, choice.path() == RestorePath.BULK && !dryRun);
            scopes.forEachPage(scope, restoring::page);
            restoring.finish();
            while (restoring.parentless.startPass()) {
                scopes.forEachPage(scope, restoring::retryParentless);
                List<RecoveryItem> given = restoring.parentless.passDone();
                if (!given.isEmpty()) {
                    store.recorded(id, given);
                }
            }
            if (restoring.entries != census.entries()) {
                // the log changed between the census and the read (records written, purged or expired meanwhile)
                store.counted(id, restoring.entries);
            }
            if (restoring.unfrozen.isEmpty()) {
                store.completed(id, clock.instant());
            } else {
                store.failed(id, restoring.unfrozenFailure(), clock.instant());
            }
        } catch (RuntimeException e) {
            log.error("recovery {} failed", id, e);
            store.failed(id, String.valueOf(e.getMessage()), clock.instant());
        }
    }

    /** Where one frozen spec's records go: its adapter and, on the bulk path, the whole rows waiting for it. */
    private final class Target {
        private final DatasetSpec spec;
        private final boolean bulkPath;
        /** Whole rows waiting for the next bulk restore, at most {@link BulkRestores#batchSize()} (bulk path only). */
        private final List<LoggedRecord> bulkBatch = new ArrayList<>();

        private StoreAdapter adapter;
        private int batchSize;

        Target(DatasetSpec spec, boolean bulkPath) {
            this.spec = spec;
            this.bulkPath = bulkPath;
        }

        StoreAdapter adapter() {
            if (adapter == null) {
                adapter = adapters.checkedAdapter(spec);
                batchSize = Math.max(
                        1,
                        Math.min(
                                sizes.batchSize(),
                                Math.min(
                                        throttle.maxBatch(),
                                        adapter.capabilities().maxBatch())));
            }
            return adapter;
        }
    }

    /**
     * One recovery's progress through its pages: settles, assesses or restores each page, then lets it go. Each record
     * goes to the target of the spec its origin froze for its dataset ({@link FrozenSpecGuard.Resolver}); a record
     * whose origin froze none is settled as failed, never restored under another spec, and fails the recovery.
     */
    private final class Restoring {
        private final UUID id;
        private final String primaryDigest;
        private final boolean dryRun;
        private final boolean bulkPath;
        private final FrozenSpecGuard.Resolver specs = frozenSpecs.resolver();
        private final Map<String, Target> targets = new LinkedHashMap<>();
        /** Why records could not be restored under a frozen spec, by origin and dataset. */
        private final Map<String, String> unfrozen = new LinkedHashMap<>();
        /** Rows refused for a parent not (yet) restored, tried again in later passes. */
        private final ParentlessRows parentless = new ParentlessRows();

        private long entries;

        Restoring(UUID id, DatasetSpec primary, boolean dryRun, boolean bulkPath) {
            this.id = id;
            this.primaryDigest = FrozenSpec.digest(primary, json);
            this.dryRun = dryRun;
            this.bulkPath = bulkPath;
        }

        void page(ScopeReader.Page page) {
            entries += page.records().size() + page.missingKeys().size();
            List<RecoveryItem> settled = new ArrayList<>();
            for (Map<String, Object> key : page.missingKeys()) {
                settled.add(new RecoveryItem(
                        "key:" + KeyHash.of(page.dataset(), key),
                        key,
                        Outcome.NOT_IN_LOG,
                        "no deletion record in the log: never deleted, or older than the log's retention",
                        null,
                        null));
            }
            Map<Target, List<LoggedRecord>> restorable = new LinkedHashMap<>();
            for (LoggedRecord record : page.records()) {
                if (record.purged()) {
                    settled.add(item(record, Outcome.PURGED, "purged from the log; its contents cannot be read"));
                    continue;
                }
                Target target;
                try {
                    target = target(specs.of(record.originId(), record.dataset()));
                } catch (FrozenSpecGuard.NoFrozenSpec e) {
                    unfrozen.putIfAbsent(record.originId() + "|" + record.dataset(), e.getMessage());
                    settled.add(item(record, Outcome.FAILED, e.getMessage()));
                    continue;
                }
                restorable.computeIfAbsent(target, t -> new ArrayList<>()).add(record);
            }
            if (!settled.isEmpty()) {
                store.recorded(id, settled);
            }
            restorable.forEach(this::restoreUnder);
        }

        /** A later pass: restores again only the page's rows that waited for their parent. */
        void retryParentless(ScopeReader.Page page) {
            Map<Target, List<LoggedRecord>> retried = new LinkedHashMap<>();
            for (LoggedRecord record : page.records()) {
                if (!parentless.retries(record.recordId())) {
                    continue;
                }
                if (record.purged()) {
                    store.recorded(
                            id,
                            List.of(item(record, Outcome.PURGED, "purged from the log; its contents cannot be read")));
                } else {
                    retried.computeIfAbsent(
                                    target(specs.of(record.originId(), record.dataset())), t -> new ArrayList<>())
                            .add(record);
                }
            }
            retried.forEach(this::online);
        }

        private Target target(FrozenSpec frozen) {
            return targets.computeIfAbsent(
                    frozen.digest(), digest -> new Target(frozen.spec(), bulkPath && digest.equals(primaryDigest)));
        }

        private void restoreUnder(Target target, List<LoggedRecord> records) {
            if (target.bulkPath) {
                // An anonymisation's record holds only the columns it cleared, and its row is live on purpose. The bulk
                // path restores whole rows into absent keys (a live key is "newer data kept"), so it cannot put those
                // columns back: anonymisations always go online, where the adapter restores only the cleared columns.
                List<LoggedRecord> wholeRows =
                        records.stream().filter(record -> !record.anonymised()).toList();
                target.bulkBatch.addAll(loaded(wholeRows));
                while (target.bulkBatch.size() >= bulk.batchSize()) {
                    flushBulk(target, bulk.batchSize());
                }
                online(target, records.stream().filter(LoggedRecord::anonymised).toList());
            } else {
                // a dry-run reads live state only, whichever path a restore would take
                online(target, records);
            }
        }

        void finish() {
            targets.values().forEach(target -> flushBulk(target, target.bulkBatch.size()));
        }

        String unfrozenFailure() {
            return unfrozen.size() + " origin(s) of records in this recovery have no frozen spec, so their records were"
                    + " not restored (outcome FAILED); the others were. " + String.join(" | ", unfrozen.values());
        }

        private void online(Target target, List<LoggedRecord> records) {
            if (records.isEmpty()) {
                return;
            }
            StoreAdapter adapter = target.adapter();
            for (int from = 0; from < records.size(); from += target.batchSize) {
                List<LoggedRecord> batch =
                        loaded(records.subList(from, Math.min(records.size(), from + target.batchSize)));
                if (!batch.isEmpty()) {
                    List<RecoveryItem> items =
                            dryRun ? assess(adapter, target.spec, batch) : restore(adapter, target.spec, batch);
                    store.recorded(id, parentless.settle(items));
                }
            }
        }

        private void flushBulk(Target target, int count) {
            if (count == 0) {
                return;
            }
            List<LoggedRecord> batch = target.bulkBatch.subList(0, count);
            store.recorded(id, bulkRestore(target.spec, batch));
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
    }

    private List<RecoveryItem> assess(StoreAdapter adapter, DatasetSpec spec, List<LoggedRecord> batch) {
        Instant now = clock.instant();
        List<LoggedRecord> wholeRows =
                batch.stream().filter(record -> !record.anonymised()).toList();
        List<LoggedRecord> anonymisations =
                batch.stream().filter(LoggedRecord::anonymised).toList();
        List<LiveState> live = wholeRows.isEmpty()
                ? List.of()
                : retrying(() -> adapter.checkLiveState(
                        spec, wholeRows.stream().map(LoggedRecord::primaryKey).toList()));
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
            retrying(() -> adapter.readRows(
                            spec,
                            liveWholeRows.stream().map(LoggedRecord::primaryKey).toList()))
                    .forEach(row -> rows.putIfAbsent(CanonicalKey.render(row.key()), row));
        }
        if (!anonymisations.isEmpty()) {
            // the columns' current values decide, not the row's presence: its row was kept on purpose
            retrying(() -> adapter.readRows(
                            spec,
                            anonymisations.stream()
                                    .map(LoggedRecord::primaryKey)
                                    .toList()))
                    .forEach(row -> rows.putIfAbsent(CanonicalKey.render(row.key()), row));
        }
        Map<String, RecoveryItem> byRecord = new HashMap<>();
        for (int i = 0; i < wholeRows.size(); i++) {
            LoggedRecord record = wholeRows.get(i);
            RecoveryItem item;
            if (expired(record, spec, now)) {
                item = item(
                        record,
                        Outcome.EXPIRED,
                        "every column's TTL ran out since the delete at " + record.deletedAt());
            } else if (live.get(i).present() && cellTimestamps) {
                ClearedColumnsForecast.Forecast forecast =
                        LiveRowForecast.of(record, rows.get(CanonicalKey.render(record.primaryKey())), spec, now);
                item = item(record, forecast.outcome(), forecast.detail());
            } else if (live.get(i).present()) {
                item = item(
                        record, Outcome.CONFLICT, "a live row exists (written after the delete); a restore keeps it");
            } else {
                item = item(record, Outcome.RESTORABLE, null);
            }
            byRecord.put(record.recordId(), item);
        }
        for (LoggedRecord record : anonymisations) {
            ClearedColumnsForecast.Forecast forecast = ClearedColumnsForecast.of(
                    record, rows.get(CanonicalKey.render(record.primaryKey())), cellTimestamps, spec, now);
            byRecord.put(record.recordId(), item(record, forecast.outcome(), forecast.detail()));
        }
        return batch.stream().map(record -> byRecord.get(record.recordId())).toList();
    }

    private List<RecoveryItem> restore(StoreAdapter adapter, DatasetSpec spec, List<LoggedRecord> batch) {
        List<DeletionRecord> records =
                batch.stream().map(LoggedRecord::toDeletionRecord).toList();
        throttle.acquire(spec.connectionRef(), records.size());
        // safe to repeat: what an earlier attempt restored now reports "already restored"
        RestoreOutcome outcome = retrying(() -> adapter.restore(spec, records));
        return items(batch, outcome);
    }

    private List<RecoveryItem> bulkRestore(DatasetSpec spec, List<LoggedRecord> batch) {
        List<DeletionRecord> records =
                batch.stream().map(LoggedRecord::toDeletionRecord).toList();
        long started = System.nanoTime();
        // safe to repeat, as online: what an earlier attempt imported now reports "already restored"
        RestoreOutcome outcome = retrying(() -> bulk.restore(spec, records));
        log.info(
                "bulk restore of {} records of {}: {} restored in {} ms",
                records.size(),
                spec.name(),
                outcome.count(RestoreOutcome.Status.RESTORED),
                (System.nanoTime() - started) / 1_000_000);
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
        return new RecoveryItem(
                record.recordId(), record.primaryKey(), outcome, detail, record.deletedAt(), record.originId());
    }
}
