package io.erasure.store.cassandra.guard;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a table's {@link TableSettings}, cached per table for {@link #FRESH_FOR}:
 *
 * <ul>
 *   <li>{@code gc_grace_seconds} from {@code system_schema.tables} and the replication from
 *       {@code system_schema.keyspaces};</li>
 *   <li>{@code tombstone_warn_threshold} from {@code system_views.settings} of the node that answers (default
 *   1000);</li>
 *   <li>the last successful repair from {@code system_distributed.repair_history}, the only durable, cluster-wide
 *       record of repairs (one row per repaired range and session, written by the repair coordinator; partitioned
 *       by table, so the lookup is one partition read newest first, bounded to the last {@code gc_grace_seconds}).
 *       A success of any range counts: it shows the table is being repaired, not that every range was. Not used:
 *       {@code parent_repair_history} (partitioned by session, no lookup by table), Cassandra 5's
 *       {@code system_views.repairs}/{@code repair_sessions} (in memory on the coordinator only, gone after a
 *       restart) and the JMX {@code PercentRepaired} (incremental repair only).</li>
 * </ul>
 * Thread-safe.
 */
public final class TableSettingsReader {

    private static final Logger LOG = LoggerFactory.getLogger(TableSettingsReader.class);
    /** Repair history rows to look through for a success before giving up (a long run of failed ranges). */
    private static final int MAX_REPAIR_ROWS = 10_000;

    /**
     * How long a table's settings are reused: gc_grace, replication and repair history change on the scale of
     * hours, and reading them scans system_distributed.repair_history, so not every few seconds of deleting.
     */
    public static final Duration FRESH_FOR = Duration.ofMinutes(5);

    private final CqlRunner cql;
    private final Clock clock;
    private final Map<String, Read> cache = new ConcurrentHashMap<>();

    private record Read(TableSettings settings, Instant at) {}

    public TableSettingsReader(CqlRunner cql, Clock clock) {
        this.cql = cql;
        this.clock = clock;
    }

    /** The settings of {@code spec}'s table as read at most {@link #FRESH_FOR} ago (one read at a time per table). */
    public TableSettings read(DatasetSpec spec) {
        Instant now = clock.instant();
        return cache.compute(
                        spec.namespace() + "." + spec.table(),
                        (name, read) ->
                                read == null || !now.isBefore(read.at().plus(FRESH_FOR)) || now.isBefore(read.at())
                                        ? new Read(readNow(spec, now), now)
                                        : read)
                .settings();
    }

    private TableSettings readNow(DatasetSpec spec, Instant now) {
        String keyspace = spec.namespace();
        String table = spec.table();
        List<List<Row>> rows = cql.readAll(
                "reading the settings of " + spec.quotedTable(),
                List.of(
                        local(
                                "SELECT gc_grace_seconds FROM system_schema.tables WHERE keyspace_name = ?"
                                        + " AND table_name = ?",
                                keyspace,
                                table),
                        local("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", keyspace),
                        local("SELECT value FROM system_views.settings WHERE name = ?", "tombstone_warn_threshold")));
        if (rows.get(0).isEmpty() || rows.get(1).isEmpty()) {
            throw new StoreException.Fatal("table " + spec.quotedTable()
                    + " is not in system_schema; create it, or fix the" + " dataset's namespace and table");
        }
        Duration gcGrace = Duration.ofSeconds(rows.get(0).get(0).getInt(0));
        Replication replication = Replication.of(rows.get(1).get(0).getMap(0, String.class, String.class));
        int threshold = rows.get(2).stream()
                .findFirst()
                .map(row -> threshold(row.getString(0)))
                .orElse(TableSettings.DEFAULT_TOMBSTONE_WARN_THRESHOLD);
        return new TableSettings(
                keyspace, table, gcGrace, replication, lastRepair(keyspace, table, now.minus(gcGrace)), threshold);
    }

    /**
     * The end of the newest successful repair of the table that started after {@code since}; empty if none or
     * unreadable.
     */
    private Optional<Instant> lastRepair(String keyspace, String table, Instant since) {
        SimpleStatement query = SimpleStatement.newInstance(
                        "SELECT status, finished_at FROM system_distributed.repair_history"
                                + " WHERE keyspace_name = ? AND columnfamily_name = ? AND id >= minTimeuuid(?)"
                                + " ORDER BY id DESC",
                        keyspace,
                        table,
                        since)
                // written at ONE by the repair coordinator; its keyspace often has more replicas than a small cluster
                .setConsistencyLevel(DefaultConsistencyLevel.ONE)
                .setIdempotent(true)
                .setPageSize(500);
        try {
            ResultSet result = cql.session().execute(query);
            int seen = 0;
            for (Row row : result) {
                if ("SUCCESS".equals(row.getString("status")) && !row.isNull("finished_at")) {
                    return Optional.of(row.getInstant("finished_at"));
                }
                if (++seen >= MAX_REPAIR_ROWS) {
                    break;
                }
            }
            return Optional.empty();
        } catch (RuntimeException e) {
            LOG.warn(
                    "cannot read the repair history of {}.{} (taken as no repair known): {}",
                    keyspace,
                    table,
                    e.toString());
            return Optional.empty();
        }
    }

    private static SimpleStatement local(String query, Object... values) {
        return SimpleStatement.newInstance(query, values)
                .setIdempotent(true)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_ONE);
    }

    private static int threshold(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (RuntimeException e) {
            return TableSettings.DEFAULT_TOMBSTONE_WARN_THRESHOLD;
        }
    }
}
