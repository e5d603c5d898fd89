package io.erasure.audit.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.identifiers.HashedIdentifierSet;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.identifiers.IdentifierSetFile;
import io.erasure.identifiers.LongIdentifierSet;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.NodeTool;
import io.erasure.model.candidate.Candidate;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SSTable reader on snapshots of the real node, taken over JMX as a backup tool would: overwrites, row, range and
 * partition deletes, TTLs, static columns and partitions spread over several SSTables, and two snapshots of one
 * table read as two replicas (their SSTables overlap). The candidates are exactly the live table's rows of
 * deletable customers, read at the same time, with their write times.
 */
class SSTableScanIT {

    private static final long T = 1_700_000_000_000_000L;
    private static final String KEYSPACE =
            "sstable_scan_" + UUID.randomUUID().toString().substring(0, 8);

    private static CassandraEngine cassandra;
    private static CqlSession session;
    private static NodeTool nodetool;

    @TempDir
    Path work;

    @BeforeAll
    static void open() throws Exception {
        cassandra = LocalEngines.cassandra();
        session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build();
        session.execute("CREATE KEYSPACE " + KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        nodetool = new NodeTool(cassandra);
    }

    @AfterAll
    static void close() throws Exception {
        nodetool.close();
        session.close();
    }

    @Test
    void candidatesAreExactlyTheLiveRowsOfDeletableCustomersMergedAcrossSSTablesAndReplicas() throws Exception {
        String table = "events";
        session.execute("CREATE TABLE " + KEYSPACE + "." + table
                + " (customer_id bigint, day int, seq int, email text static, what text, note text,"
                + " PRIMARY KEY ((customer_id, day), seq))"
                + " WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}");
        // SSTable 1: three events a day, two days, customers 1 to 12 (odd ones are deletable)
        for (long customer = 1; customer <= 12; customer++) {
            for (int day = 1; day <= 2; day++) {
                exec(
                        table,
                        "UPDATE %s USING TIMESTAMP " + T + " SET email = 'c" + customer + "@example.com'"
                                + " WHERE customer_id = " + customer
                                + " AND day = " + day);
                for (int seq = 1; seq <= 3; seq++) {
                    exec(
                            table,
                            "INSERT INTO %s (customer_id, day, seq, what, note) VALUES (" + customer + ", " + day + ", "
                                    + seq + ", 'login', 'n') USING TIMESTAMP " + (T + customer * 100 + seq));
                }
            }
        }
        // expired before the scan: a row inserted with a short TTL (customer 1, day 1, seq 9)
        exec(table, "INSERT INTO %s (customer_id, day, seq, what) VALUES (1, 1, 9, 'short') USING TTL 1");
        nodetool.flush(KEYSPACE, table);
        nodetool.snapshot("early", KEYSPACE, table);

        // SSTable 2: overwrites, deletes of every kind, new rows of partitions already on disk
        exec(
                table,
                "UPDATE %s USING TIMESTAMP " + (T + 5_000) + " SET what = 'logout' WHERE customer_id = 1 AND day = 1"
                        + " AND seq = 1");
        exec(table, "DELETE FROM %s USING TIMESTAMP " + (T + 5_001) + " WHERE customer_id = 1 AND day = 1 AND seq = 2");
        exec(table, "DELETE FROM %s USING TIMESTAMP " + (T + 5_002) + " WHERE customer_id = 3 AND day = 1");
        exec(
                table,
                "DELETE FROM %s USING TIMESTAMP " + (T + 5_003) + " WHERE customer_id = 5 AND day = 2 AND seq >= 2");
        exec(
                table,
                "DELETE what, note FROM %s USING TIMESTAMP " + (T + 5_004)
                        + " WHERE customer_id = 7 AND day = 1 AND seq = 1");
        exec(
                table,
                "INSERT INTO %s (customer_id, day, seq, what) VALUES (7, 2, 4, 'new') USING TIMESTAMP " + (T + 5_005));
        // a row made by an UPDATE alone lives by its cells: once they are deleted, it is gone
        exec(
                table,
                "UPDATE %s USING TIMESTAMP " + (T + 5_006)
                        + " SET what = 'x' WHERE customer_id = 9 AND day = 1 AND seq = 7");
        exec(
                table,
                "DELETE what FROM %s USING TIMESTAMP " + (T + 5_007)
                        + " WHERE customer_id = 9 AND day = 1 AND seq = 7");
        // an older write than what is on disk changes nothing
        exec(
                table,
                "UPDATE %s USING TIMESTAMP " + (T + 1)
                        + " SET what = 'stale' WHERE customer_id = 11 AND day = 1 AND seq = 1");
        // a partition with static columns only: CQL shows it with null clustering columns, no key names it
        exec(table, "UPDATE %s SET email = 'c13@example.com' WHERE customer_id = 13 AND day = 1");
        nodetool.flush(KEYSPACE, table);
        // SSTable 3 (in the memtable at snapshot time, flushed by it): a delete of the whole of customer 11's day 2
        exec(table, "DELETE FROM %s USING TIMESTAMP " + (T + 6_000) + " WHERE customer_id = 11 AND day = 2");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> session.execute("SELECT seq FROM " + KEYSPACE + "." + table
                                        + " WHERE customer_id = 1 AND day = 1 AND seq = 9")
                                .one()
                        == null);
        nodetool.snapshot("final", KEYSPACE, table);
        long now = Instant.now().getEpochSecond();
        List<String> live = new ArrayList<>(liveRows(table));
        // CQL cannot show a row marker's write time: 7/1/1 lives by its INSERT's marker alone, which the reader reports
        assertThat(live.remove("7/1/1@null")).isTrue();
        live.add("7/1/1@" + (T + 701));

        Path early = snapshotDir(table, "early");
        Path last = snapshotDir(table, "final");
        ScanOutcome outcome = scan(eventsUnit(early, last, null, now), textSet("1", "3", "5", "7", "9", "11", "13"));

        assertThat(outcome.rows()).containsExactlyInAnyOrderElementsOf(live);
        assertThat(outcome.rows())
                .contains("1/1/1@" + (T + 5_000), "7/1/1@" + (T + 701), "7/2/4@" + (T + 5_005), "11/1/1@" + (T + 1101))
                .noneMatch(r -> r.startsWith("1/1/2@") || r.startsWith("1/1/9@") || r.startsWith("3/1/"))
                .noneMatch(r -> r.startsWith("5/2/2@") || r.startsWith("5/2/3@") || r.startsWith("11/2/"))
                .noneMatch(r -> r.startsWith("9/1/7@") || r.startsWith("13/"));
        // 12 customers x 2 days x 3 rows, less: 1/1/2, customer 3's day 1 (3), customer 5's day 2 seq 2-3 (2), and
        // customer 11's day 2 (3); plus 7/2/4. Each row once, though both snapshots hold SSTable 1.
        assertThat(outcome.result().rowsScanned()).isEqualTo(72 - 1 - 3 - 2 - 3 + 1);
        assertThat(outcome.result().candidates()).isEqualTo(live.size());
        assertThat(outcome.result().sstables()).isGreaterThanOrEqualTo(4);
        assertThat(outcome.result().staticOnlyPartitions()).isEqualTo(1);
        // partition deletes (3/1, 11/2), the range delete, the row delete, the expired and the emptied row
        assertThat(outcome.result().deletedNotPurged()).isGreaterThanOrEqualTo(6);

        // token ranges split the same scan without losing or repeating a row (integer identifiers compared as integers)
        List<String> halves = new ArrayList<>();
        for (SSTableUnit.TokenRange range :
                List.of(new SSTableUnit.TokenRange(Long.MIN_VALUE, 0), new SSTableUnit.TokenRange(0, Long.MAX_VALUE))) {
            halves.addAll(scan(eventsUnit(early, last, range, now), numericSet(1, 3, 5, 7, 9, 11, 13))
                    .rows());
        }
        assertThat(halves).containsExactlyInAnyOrderElementsOf(live);
    }

    @Test
    void textIdentifiersInARegularColumnFollowItsOverwritesAndAWrongKeyIsRefused() throws Exception {
        String table = "orders";
        session.execute("CREATE TABLE " + KEYSPACE + "." + table + " (order_id text PRIMARY KEY, customer text,"
                + " total int) WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}");
        for (int i = 0; i < 40; i++) {
            exec(
                    table,
                    "INSERT INTO %s (order_id, customer, total) VALUES ('o-" + i + "', 'cust-" + (i % 8) + "', " + i
                            + ") USING TIMESTAMP " + (T + i));
        }
        nodetool.flush(KEYSPACE, table);
        // order 2 moves from a deletable customer to a kept one, order 3 the other way; order 4's customer is removed
        exec(table, "UPDATE %s USING TIMESTAMP " + (T + 900) + " SET customer = 'cust-1' WHERE order_id = 'o-2'");
        exec(table, "UPDATE %s USING TIMESTAMP " + (T + 901) + " SET customer = 'cust-ü' WHERE order_id = 'o-3'");
        exec(table, "DELETE customer FROM %s USING TIMESTAMP " + (T + 902) + " WHERE order_id = 'o-4'");
        nodetool.snapshot("final", KEYSPACE, table);
        Path last = snapshotDir(table, "final");
        List<String> live = new ArrayList<>();
        for (Row row : session.execute(
                "SELECT order_id, customer, writetime(customer), writetime(total) FROM " + KEYSPACE + "." + table)) {
            String customer = row.getString("customer");
            if (customer != null
                    && (customer.equals("cust-0") || customer.equals("cust-2") || customer.equals("cust-ü"))) {
                live.add(row.getString("order_id") + "@"
                        + Math.max(row.getLong(2), row.isNull(3) ? Long.MIN_VALUE : row.getLong(3)));
            }
        }
        SSTableUnit unit = new SSTableUnit(
                KEYSPACE,
                table,
                last.resolve("schema.cql"),
                List.of(last),
                List.of("order_id"),
                "customer",
                null,
                Instant.now().getEpochSecond());

        ScanOutcome outcome = scan(unit, textSet("cust-0", "cust-2", "cust-ü"));

        assertThat(outcome.rows()).containsExactlyInAnyOrderElementsOf(live).contains("o-3@" + (T + 901));
        assertThat(outcome.rows()).noneMatch(r -> r.startsWith("o-2@") || r.startsWith("o-4@"));
        assertThat(outcome.identifiers()).contains("cust-ü");

        SSTableUnit wrongKey = new SSTableUnit(
                KEYSPACE, table, last.resolve("schema.cql"), List.of(last), List.of("customer"), "customer", null, 1);
        assertThatThrownBy(() -> scan(wrongKey, textSet("cust-0")))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("has the primary key [order_id], the dataset says [customer]");
        assertThatThrownBy(() -> scan(unit, numericSet(1)))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("integer identifiers can only be compared with an integer column");
    }

    @Test
    void keyValuesAreSpelledAsThePlatformCarriesThemBlobsInBase64TimestampsInIsoAndDecimalsWithEveryDigit()
            throws Exception {
        String table = "spelled";
        session.execute("CREATE TABLE " + KEYSPACE + "." + table + " (id blob, at timestamp, amount decimal,"
                + " ratio double, owner text, PRIMARY KEY ((id), at, amount, ratio))");
        exec(
                table,
                "INSERT INTO %s (id, at, amount, ratio, owner) VALUES (0xcafe, '2024-01-02 03:04:05.678+0000',"
                        + " 1.10, NaN, 'cust-1') USING TIMESTAMP " + T);
        exec(
                table,
                "INSERT INTO %s (id, at, amount, ratio, owner) VALUES (0x00, '2024-01-02 03:04:05.678+0000',"
                        + " 12345678901234567890.123456789, 0.1, 'cust-1') USING TIMESTAMP " + T);
        nodetool.snapshot("final", KEYSPACE, table);
        Path last = snapshotDir(table, "final");
        SSTableUnit unit = new SSTableUnit(
                KEYSPACE,
                table,
                last.resolve("schema.cql"),
                List.of(last),
                List.of("id", "at", "amount", "ratio"),
                "owner",
                null,
                Instant.now().getEpochSecond());
        Path dir = Files.createTempDirectory(work, "unit");
        Path ids = dir.resolve("identifiers.set");
        IdentifierSetFile.write(textSet("cust-1"), ids);
        List<Candidate> candidates = new ArrayList<>();

        SSTableScan.onRuntimeClasspath(Duration.ofMinutes(2), "256m").scan(unit, ids, dir, candidates::add);

        assertThat(candidates)
                .extracting(c -> c.key().toString())
                .containsExactlyInAnyOrder(
                        "{id=yv4=, at=2024-01-02T03:04:05.678Z, amount=1.10, ratio=NaN}",
                        "{id=AA==, at=2024-01-02T03:04:05.678Z, amount=12345678901234567890.123456789, ratio=0.1}");
    }

    /** The events table's two snapshots, read as two replicas. */
    private static SSTableUnit eventsUnit(Path early, Path last, SSTableUnit.TokenRange range, long now) {
        return new SSTableUnit(
                KEYSPACE,
                "events",
                last.resolve("schema.cql"),
                List.of(early, last),
                List.of("customer_id", "day", "seq"),
                "customer_id",
                range,
                now);
    }

    private record ScanOutcome(ScanResult result, List<String> rows, Set<String> identifiers) {}

    private ScanOutcome scan(SSTableUnit unit, IdentifierSet identifiers) throws IOException {
        Path dir = Files.createTempDirectory(work, "unit");
        Path ids = dir.resolve("identifiers.set");
        IdentifierSetFile.write(identifiers, ids);
        List<Candidate> candidates = new ArrayList<>();
        ScanResult result =
                SSTableScan.onRuntimeClasspath(Duration.ofMinutes(2), "256m").scan(unit, ids, dir, candidates::add);
        List<String> rows = candidates.stream()
                .map(c -> c.key().values().stream().map(String::valueOf).collect(Collectors.joining("/")) + "@"
                        + c.writeTimeMicros())
                .toList();
        Set<String> seen = new HashSet<>();
        candidates.forEach(c -> seen.add(c.identifier()));
        return new ScanOutcome(result, rows, seen);
    }

    /** The live rows of odd (deletable) customers, as {@code customer/day/seq@latest write time of a cell}. */
    private List<String> liveRows(String table) {
        List<String> rows = new ArrayList<>();
        for (Row row : session.execute(
                "SELECT customer_id, day, seq, writetime(what), writetime(note) FROM " + KEYSPACE + "." + table)) {
            if (row.isNull("seq") || row.getLong("customer_id") % 2 == 0) {
                continue;
            }
            long written = Math.max(
                    row.isNull(3) ? Long.MIN_VALUE : row.getLong(3), row.isNull(4) ? Long.MIN_VALUE : row.getLong(4));
            rows.add(row.getLong("customer_id") + "/" + row.getInt("day") + "/" + row.getInt("seq") + "@"
                    + (written == Long.MIN_VALUE ? "null" : written));
        }
        return rows;
    }

    private Path snapshotDir(String table, String tag) throws IOException {
        Path snapshot =
                cassandra.tableDirectory(KEYSPACE, table).resolve("snapshots").resolve(tag);
        assertThat(snapshot.resolve("schema.cql")).exists();
        return snapshot;
    }

    private static void exec(String table, String cql) {
        session.execute(cql.replace("%s", KEYSPACE + "." + table));
    }

    private static IdentifierSet numericSet(long... ids) {
        return LongIdentifierSet.of(ids, ids.length);
    }

    private static IdentifierSet textSet(String... ids) {
        return HashedIdentifierSet.of(List.of(ids));
    }
}
