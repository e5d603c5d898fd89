package io.erasure.store.cassandra.bulk;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.cassandra.CassandraStoreAdapter;
import io.erasure.store.cassandra.restore.RestoreWrites;
import io.erasure.store.cassandra.restore.RestoreWrites.RowWrite;
import io.erasure.store.cassandra.restore.Restorer;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Restores many deletion records of one Cassandra table at once as SSTables, with the online restore's
 * last-write-wins rules ({@link Restorer}, {@link RestoreWrites}):
 *
 * <ol>
 *   <li>The live state of every key is read first through the adapter; a key with live data again (a write after the
 *       cut-off, or an earlier restore) gets no row in the SSTables: it is restored through the adapter's online
 *       restore, which puts back each cell that has no newer one and keeps the newer ones ({@link Restorer}).</li>
 *   <li>The remaining rows are written, each cell at cut-off + 1 µs with its remaining TTL, by
 *       {@code CQLSSTableWriter} in a child JVM ({@link SSTableWriterProcess}); records whose every column
 *       expired are {@link Status#EXPIRED} and written nowhere.</li>
 *   <li>The SSTables are loaded as {@link BulkSettings#chosenLoader()} says: imported into the local node over JMX
 *       ({@link SSTableImport}, {@code nodetool import}), or streamed to the replicas by {@code sstableloader} in a
 *       child JVM ({@link SSTableLoaderProcess}), for a remote node or cluster. Either way the cells keep their
 *       timestamps and TTLs: the same last-write-wins result.</li>
 *   <li>Every written key is read back: present is {@link Status#RESTORED}, absent is {@link Status#FAILED}.</li>
 * </ol>
 *
 * <p>A write that lands between the live-state check and the import is newer than cut-off + 1 µs and still
 * wins cell by cell, exactly as against an online restore. Restoring again is safe: the restored keys are
 * then live and report "already restored". Use it for large recoveries; each call starts a JVM (~1–2 s), so
 * a few hundred records go faster through {@code adapter.restore}. Not thread-safe per table: run one bulk
 * restore of a table at a time.
 *
 * <p>Records of an anonymisation ({@link DeletionRecord#anonymised()}) are refused as {@link Status#FAILED} and
 * nothing is written for them: they hold only the cleared columns of a row that was kept, which the online
 * {@code adapter.restore} puts back column by column.
 */
public final class BulkRestorer {

    private static final Logger LOG = LoggerFactory.getLogger(BulkRestorer.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final CassandraStoreAdapter adapter;
    private final BulkSettings settings;
    private final Clock clock;
    private final SSTableWriterProcess writer;
    private final SSTableImport importer;
    private final SSTableLoaderProcess loader;

    public BulkRestorer(CassandraStoreAdapter adapter, BulkSettings settings, Clock clock) {
        this.adapter = adapter;
        this.settings = settings;
        this.clock = clock;
        this.writer =
                new SSTableWriterProcess(settings.writerTimeout(), settings.writerHeap(), settings.writerClasspath());
        this.importer = new SSTableImport(settings.jmx(), settings.jmxEnvironment());
        this.loader = new SSTableLoaderProcess(
                settings.writerTimeout(), settings.writerHeap(), settings.writerClasspath(), settings.streaming());
    }

    /**
     * Restores {@code records} (any number, all of {@code spec}'s dataset) and returns one outcome per record,
     * in order.
     *
     * @throws StoreException.Retriable if the node could not be read or the import failed; repeating the call is safe
     */
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        for (DeletionRecord record : records) {
            if (!record.dataset().equals(spec.name())) {
                throw new IllegalArgumentException(
                        "record " + record.recordId() + " belongs to dataset '" + record.dataset() + "', not '"
                                + spec.name() + "'; restore each dataset's records with its own spec");
            }
            spec.keyColumns().requireFullKey("record " + record.recordId() + " primaryKey", record.primaryKey());
        }
        var shape = adapter.tableShape(spec);
        RecordOutcome[] outcomes = new RecordOutcome[records.size()];
        List<Integer> inStore = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            DeletionRecord record = records.get(i);
            if (record.retainedRef() != null) {
                outcomes[i] = outcome(
                        record,
                        Status.FAILED,
                        "the row's columns are in S3 at " + record.retainedRef()
                                + "; the recovery service fetches them and restores the full record");
            } else if (record.anonymised()) {
                // only the cleared columns of a row that is live on purpose: a whole-row restore into absent keys
                // cannot
                // put them back, and must not write anything for this key
                outcomes[i] = outcome(
                        record,
                        Status.FAILED,
                        "the record of an anonymisation (only the columns it cleared);"
                                + " the bulk path restores whole rows, restore it online through the adapter");
            } else {
                inStore.add(i);
            }
        }

        List<LiveState> states = liveStates(
                spec, inStore.stream().map(i -> records.get(i).primaryKey()).toList());
        Instant now = clock.instant();
        List<Integer> written = new ArrayList<>();
        List<Integer> live = new ArrayList<>();
        List<RowWrite> rows = new ArrayList<>();
        for (int n = 0; n < inStore.size(); n++) {
            int i = inStore.get(n);
            DeletionRecord record = records.get(i);
            if (states.get(n).present()) {
                live.add(i);
                continue;
            }
            try {
                List<RowWrite> writes = RestoreWrites.of(shape, record, now);
                if (writes.isEmpty()) {
                    outcomes[i] = outcome(
                            record,
                            Status.EXPIRED,
                            "every column's TTL ran out since the delete at " + record.deletedAt());
                } else {
                    written.add(i);
                    rows.addAll(writes);
                }
            } catch (IllegalArgumentException e) {
                outcomes[i] = outcome(record, Status.FAILED, e.getMessage());
            }
        }
        if (!rows.isEmpty()) {
            load(spec, rows);
            List<LiveState> after = liveStates(
                    spec, written.stream().map(i -> records.get(i).primaryKey()).toList());
            for (int n = 0; n < written.size(); n++) {
                int i = written.get(n);
                outcomes[i] = after.get(n).present()
                        ? outcome(records.get(i), Status.RESTORED, null)
                        : outcome(
                                records.get(i),
                                Status.FAILED,
                                "imported but not readable: the node ignored the SSTable"
                                        + " (is storage_compatibility_mode NONE?) or a delete newer than the restore"
                                        + " removed it");
            }
        }
        restoreIntoLiveRows(spec, records, live, outcomes);
        return new RestoreOutcome(List.of(outcomes));
    }

    /** Keys with live data: cell by cell through the adapter, as an online restore (few, next to a large recovery). */
    private void restoreIntoLiveRows(
            DatasetSpec spec, List<DeletionRecord> records, List<Integer> live, RecordOutcome[] outcomes) {
        int batch = adapter.capabilities().maxBatch();
        for (int from = 0; from < live.size(); from += batch) {
            List<Integer> part = live.subList(from, Math.min(live.size(), from + batch));
            RestoreOutcome online =
                    adapter.restore(spec, part.stream().map(records::get).toList());
            for (int n = 0; n < part.size(); n++) {
                outcomes[part.get(n)] = online.records().get(n);
            }
        }
    }

    /** Writes {@code rows} as SSTables in a child JVM, loads them, and removes the work folder. */
    private void load(DatasetSpec spec, List<RowWrite> rows) {
        BulkSettings.Loader how = settings.chosenLoader();
        Path work = settings.workDir().resolve("bulk-" + spec.name() + "-" + UUID.randomUUID());
        try {
            // named keyspace/table: the node reads the SSTables' keyspace and table from the folder names and
            // ignores the files otherwise ("No new SSTables were found"); sstableloader wants the same layout
            Path out = Files.createDirectories(work.resolve(spec.namespace()).resolve(spec.table()));
            Path schema = work.resolve("schema.cql");
            Files.writeString(schema, SSTableSchema.of(adapter.tableMetadata(spec)));
            Path rowsFile = work.resolve("rows.jsonl");
            writeRows(rowsFile, rows);
            long started = System.nanoTime();
            writer.write(schema, rowsFile, out, work.resolve("writer.log"));
            long wroteAt = System.nanoTime();
            if (how == BulkSettings.Loader.SSTABLELOADER) {
                loader.load(out, work.resolve("loader.log"));
            } else {
                importer.importInto(spec.namespace(), spec.table(), out);
            }
            LOG.info(
                    "bulk restore of {} rows into {}: SSTables written in {} ms, loaded by {} in {} ms",
                    rows.size(),
                    spec.quotedTable(),
                    (wroteAt - started) / 1_000_000,
                    how.name().toLowerCase(Locale.ROOT),
                    (System.nanoTime() - wroteAt) / 1_000_000);
        } catch (IOException e) {
            throw new UncheckedIOException("preparing the bulk restore of " + spec.quotedTable() + " in " + work, e);
        } catch (IllegalStateException e) {
            throw new StoreException.Fatal(
                    "writing the SSTables of " + spec.quotedTable() + " failed: " + e.getMessage(), e);
        } finally {
            deleteQuietly(work);
        }
    }

    private static void writeRows(Path file, List<RowWrite> rows) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (RowWrite row : rows) {
                out.write("{\"json\":");
                out.write(JSON.writeValueAsString(row.json()));
                out.write(",\"ts\":" + row.writeTimeMicros());
                if (row.ttlSeconds() != null) {
                    out.write(",\"ttl\":" + row.ttlSeconds());
                }
                out.write("}\n");
            }
        }
    }

    private List<LiveState> liveStates(DatasetSpec spec, List<Map<String, Object>> keys) {
        int batch = adapter.capabilities().maxBatch();
        List<LiveState> states = new ArrayList<>(keys.size());
        for (int from = 0; from < keys.size(); from += batch) {
            states.addAll(adapter.checkLiveState(spec, keys.subList(from, Math.min(keys.size(), from + batch))));
        }
        return states;
    }

    private static void deleteQuietly(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not remove the bulk restore folder {}: {}", folder, e.toString());
        }
    }

    private static RecordOutcome outcome(DeletionRecord record, Status status, String detail) {
        return new RecordOutcome(record.recordId(), record.primaryKey(), status, detail);
    }
}
