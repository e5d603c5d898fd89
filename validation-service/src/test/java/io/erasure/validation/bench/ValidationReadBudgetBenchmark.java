package io.erasure.validation.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.stores.StoreConnectionsProperties;
import io.erasure.validation.check.CandidateChecks;
import io.erasure.validation.check.DropReason;
import io.erasure.validation.check.IdentifierLiveness;
import io.erasure.validation.check.ReadThrottle;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Candidates checked per second by {@link CandidateChecks} at one read budget ({@code bench.reads-per-second},
 * default 2,000, validation's default), against the local PostgreSQL (identifier source, and a PostgreSQL dataset)
 * and Cassandra (a Cassandra dataset). {@code bench.candidates} candidates (default 20,000) in batches of
 * {@code bench.batch-size} (default 200, validation's default), one caller, as a validation job checks them; every
 * tenth identifier is reactivated, one row in 20 is gone and one in 25 was written after the cut-off, so each
 * verdict is exercised. Prints candidates/s and the verdict counts (which must be the same before and after a
 * change). Not a test: it asserts nothing and never runs in {@code verify}.
 *
 * <pre>
 * ./mvnw -B -q -o -f validation-service/pom.xml test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/cp-validation.txt -Dmdep.includeScope=test
 * java -cp validation-service/target/test-classes:validation-service/target/classes:$(cat /tmp/cp-validation.txt) \
 *   [-Dbench.candidates=20000 -Dbench.reads-per-second=2000 -Dbench.batch-size=200] \
 *   io.erasure.validation.bench.ValidationReadBudgetBenchmark
 * </pre>
 * (The exec plugin's parent POM is not in the offline repository here, hence the plain {@code java}.) The machine
 * is shared: compare figures within one run, or runs close together.
 */
public final class ValidationReadBudgetBenchmark {

    private static final int CANDIDATES = Integer.getInteger("bench.candidates", 20_000);
    private static final int READS_PER_SECOND = Integer.getInteger("bench.reads-per-second", 2_000);
    private static final int BATCH = Integer.getInteger("bench.batch-size", 200);
    private static final String SCHEMA = "vbench";
    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));

    private ValidationReadBudgetBenchmark() {}

    public static void main(String[] args) throws Exception {
        PostgresEngine postgres = LocalEngines.postgres();
        CassandraEngine cassandra = LocalEngines.cassandra();
        Map<String, String> properties = new HashMap<>();
        properties.putAll(postgres.storeConnectionProperties("pg-main"));
        properties.putAll(cassandra.storeConnectionProperties("cass-main"));
        loadPostgres(postgres);
        loadCassandra(cassandra);

        IdentifierSource source = new IdentifierSource(
                "bench-customers",
                StoreKind.POSTGRES,
                "pg-main",
                SCHEMA,
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation("bench-customers", BackupFormat.JSONL_GZIP),
                Duration.ofDays(3));
        DatasetSpec pgProfiles =
                spec("bench-pg-profiles", StoreKind.POSTGRES, "pg-main", ConditionalColumn.timestamp("updated_at"));
        DatasetSpec cassProfiles =
                spec("bench-cass-profiles", StoreKind.CASSANDRA, "cass-main", ConditionalColumn.none());
        List<Candidate> candidates = new ArrayList<>(CANDIDATES);
        for (long id = 1; id <= CANDIDATES; id++) {
            candidates.add(new Candidate(Map.of("customer_id", id), Long.toString(id), null));
        }
        System.out.printf(
                Locale.ROOT,
                "Validation live checks: %,d candidates, batches of %d, read budget %,d reads/s per"
                        + " connection, one caller%n",
                CANDIDATES,
                BATCH,
                READS_PER_SECOND);
        try (StoreAdapterPool stores = new StoreAdapterPool(StoreAdapters.load(), connections(properties))) {
            // warm-up (JIT, connections, schema checks) on a budget that does not bind, not printed
            run(
                    new CandidateChecks(
                            stores, new IdentifierLiveness(stores), new ReadThrottle(1_000_000), Clock.systemUTC()),
                    source,
                    pgProfiles,
                    candidates.subList(0, Math.min(2_000, CANDIDATES)));
            run(
                    new CandidateChecks(
                            stores, new IdentifierLiveness(stores), new ReadThrottle(1_000_000), Clock.systemUTC()),
                    source,
                    cassProfiles,
                    candidates.subList(0, Math.min(2_000, CANDIDATES)));
            for (DatasetSpec spec : List.of(pgProfiles, cassProfiles)) {
                // a fresh budget per dataset, as each run starts with its own
                CandidateChecks checks = new CandidateChecks(
                        stores, new IdentifierLiveness(stores), new ReadThrottle(READS_PER_SECOND), Clock.systemUTC());
                long start = System.nanoTime();
                Verdicts verdicts = run(checks, source, spec, candidates);
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(
                        Locale.ROOT,
                        "%-9s dataset (identifiers in PostgreSQL): %6.2f s = %,9.0f candidates/s;"
                                + " kept %,d, dropped %s%n",
                        spec.storeKind(),
                        seconds,
                        CANDIDATES / seconds,
                        verdicts.kept(),
                        verdicts.dropped());
            }
        }
    }

    private record Verdicts(long kept, Map<DropReason, Long> dropped) {}

    private static Verdicts run(
            CandidateChecks checks, IdentifierSource source, DatasetSpec spec, List<Candidate> candidates) {
        long kept = 0;
        Map<DropReason, Long> dropped = new EnumMap<>(DropReason.class);
        for (int from = 0; from < candidates.size(); from += BATCH) {
            CandidateChecks.Checked checked = checks.check(
                    spec, source, CUTOFF, candidates.subList(from, Math.min(candidates.size(), from + BATCH)));
            kept += checked.kept().size();
            checked.dropped().forEach((reason, n) -> dropped.merge(reason, n, Long::sum));
        }
        return new Verdicts(kept, dropped);
    }

    private static void loadPostgres(PostgresEngine postgres) throws SQLException {
        try (Connection connection =
                        DriverManager.getConnection(postgres.jdbcUrl(), postgres.username(), postgres.password());
                Statement sql = connection.createStatement()) {
            sql.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            sql.execute("CREATE SCHEMA " + SCHEMA);
            sql.execute(
                    "CREATE TABLE " + SCHEMA + ".customers (customer_id bigint PRIMARY KEY, deleted_at timestamptz)");
            sql.execute("CREATE TABLE " + SCHEMA + ".profiles (customer_id bigint PRIMARY KEY, name text,"
                    + " updated_at timestamptz NOT NULL)");
            sql.execute("INSERT INTO " + SCHEMA + ".customers SELECT g, CASE WHEN g % 10 = 0 THEN NULL"
                    + " ELSE now() - interval '10 days' END FROM generate_series(1, " + CANDIDATES + ") g");
            sql.execute("INSERT INTO " + SCHEMA + ".profiles SELECT g, 'name-' || g, CASE WHEN g % 25 = 3"
                    + " THEN now() ELSE now() - interval '10 days' END FROM generate_series(1, " + CANDIDATES + ") g"
                    + " WHERE g % 20 <> 7");
            sql.execute("ANALYZE " + SCHEMA + ".customers");
            sql.execute("ANALYZE " + SCHEMA + ".profiles");
        }
    }

    private static void loadCassandra(CassandraEngine cassandra) {
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build()) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + SCHEMA
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("DROP TABLE IF EXISTS " + SCHEMA + ".profiles");
            session.execute("CREATE TABLE " + SCHEMA + ".profiles (customer_id bigint PRIMARY KEY, name text)");
            PreparedStatement insert = session.prepare(
                    "INSERT INTO " + SCHEMA + ".profiles (customer_id, name) VALUES (?, ?) USING TIMESTAMP ?");
            long old = CUTOFF.micros() - Duration.ofDays(10).toNanos() / 1_000;
            long newer = CUTOFF.micros() + 60_000_000L;
            List<CompletableFuture<?>> pending = new ArrayList<>();
            for (long id = 1; id <= CANDIDATES; id++) {
                if (id % 20 == 7) {
                    continue;
                }
                pending.add(session.executeAsync(insert.bind(id, "name-" + id, id % 25 == 3 ? newer : old))
                        .toCompletableFuture());
                if (pending.size() == 256) {
                    pending.forEach(CompletableFuture::join);
                    pending.clear();
                }
            }
            pending.forEach(CompletableFuture::join);
        }
    }

    private static DatasetSpec spec(String name, StoreKind kind, String connection, ConditionalColumn conditional) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(kind)
                .connectionRef(connection)
                .namespace(SCHEMA)
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource("bench-customers")
                .conditionalColumn(conditional)
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("bench")
                .build();
    }

    /** {@code erasure.connections[ref].kind} and {@code ...settings[name]}, as the engines give them, as the record. */
    private static StoreConnectionsProperties connections(Map<String, String> properties) {
        Pattern kind = Pattern.compile("erasure\\.connections\\[(.+)]\\.kind");
        Pattern setting = Pattern.compile("erasure\\.connections\\[(.+)]\\.settings\\[(.+)]");
        Map<String, StoreKind> kinds = new HashMap<>();
        Map<String, Map<String, String>> settings = new HashMap<>();
        properties.forEach((name, value) -> {
            Matcher k = kind.matcher(name);
            Matcher s = setting.matcher(name);
            if (k.matches()) {
                kinds.put(k.group(1), StoreKind.valueOf(value));
            } else if (s.matches()) {
                settings.computeIfAbsent(s.group(1), ref -> new HashMap<>()).put(s.group(2), value);
            }
        });
        Map<String, StoreConnectionsProperties.Connection> connections = new HashMap<>();
        kinds.forEach(
                (ref, k) -> connections.put(ref, new StoreConnectionsProperties.Connection(k, settings.get(ref))));
        return new StoreConnectionsProperties(connections);
    }
}
