package io.erasure.local.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.erasure.backup.export.BackupExporterMain;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.S3Engine;
import io.erasure.local.LocalPlatform;
import io.erasure.local.bench.RunStages.Measured;
import io.erasure.local.bench.RunStages.Stage;
import io.erasure.local.demo.PlatformClient;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.store.spi.StoreConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole pipeline, measured: starts the platform as {@code ./erasure-local} does (fresh engines under
 * {@code target/pipeline-bench}), and for each size N loads a PostgreSQL and a Cassandra table of N rows (every
 * {@code bench.deletable-every}th row's member has left), exports their backups, registers them, runs one full cycle
 * per store (approved by the operator: it is each dataset's first run) and prints, per stage and per store, the time,
 * rows/s and CPU-seconds (the platform's six services, and the whole host), next to the adapter's own unthrottled
 * delete rate on a copy of the same rows in the same run. Not a test: it asserts only that each run completed and left
 * exactly the rows it should.
 *
 * <p>From the repository root, after {@code ./mvnw -B -q -o install -DskipTests}:
 * <pre>
 * ./mvnw -B -q -o -pl local-platform test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * java -cp "local-platform/target/test-classes:local-platform/target/classes:$(cat \
 *   local-platform/target/bench.classpath)" io.erasure.local.bench.PipelineBenchmark
 * # before the class name: -Dbench.sizes=10000,100000,1000000 -Dbench.deletable-every=10
 * #   -Dbench.stores=postgres (the runs to measure; default postgres,cassandra: both tables are loaded either way)
 * #   -Dbench.project=/path/to/another/built/checkout (the services' jars; default: this one)
 * #   -Dbench.set.erasure.deletion.max-rows-per-second=20000 (any service property, prefixed with bench.set.)
 * </pre>
 */
public final class PipelineBenchmark {

    private static final List<String> SERVICE_NAMES =
            List.of("control-plane", "audit", "validation", "deletion", "deletion-log", "recovery");
    private static final String TEAM = "demo-team"; // the local owner's team
    private static final int TASK_SIZE = 500;

    private PipelineBenchmark() {}

    record StoreResult(
            String store, long rows, long deleted, Map<Stage, Measured> stages, AdapterRate.Measured adapter) {}

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = Stream.of(System.getProperty("bench.sizes", "10000,100000,1000000")
                        .split(","))
                .map(String::trim)
                .map(Integer::parseInt)
                .toList();
        int deletableEvery = Integer.getInteger("bench.deletable-every", 10);
        int isolationSize = Integer.getInteger("bench.isolation-size", 100_000);
        Map<String, String> overrides = new LinkedHashMap<>();
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("bench.set."))
                .forEach(name -> overrides.put(name.substring("bench.set.".length()), System.getProperty(name)));
        // the isolation phase's slow store: the same Cassandra node through a second connection, pinned to the floor
        overrides.putIfAbsent("erasure.deletion.store-max-rows-per-second[" + SLOW + "]", "10");
        // the services' jars come from a built checkout: this one, or a copy that no build rewrites while it runs
        Path project = Path.of(System.getProperty("bench.project", "")).toAbsolutePath();
        Path root = Path.of("local-platform/target/pipeline-bench").toAbsolutePath();
        deleteTree(root);
        try (LocalPlatform.Running platform = LocalPlatform.start(project, root, properties -> {
            Map<String, String> adjusted = new LinkedHashMap<>(properties);
            String main = "erasure.connections[cassandra-main].";
            properties.forEach((name, value) -> {
                if (name.startsWith(main)) {
                    adjusted.put("erasure.connections[" + SLOW + "]." + name.substring(main.length()), value);
                }
            });
            adjusted.putAll(overrides);
            return adjusted;
        })) {
            PostgresEngine postgres = platform.engine(PostgresEngine.class);
            CassandraEngine cassandra = platform.engine(CassandraEngine.class);
            JsonMapper json = JsonMapper.builder().build();
            PlatformClient controlPlane =
                    new PlatformClient(json, URI.create("http://127.0.0.1:8080"), "viewer", "viewer");
            RunStages runs = new RunStages(
                    controlPlane.as("owner", "owner"), controlPlane.as("operator", "operator"), platform.services());
            String[] hostPort = cassandra.contactPoint().split(":");
            CqlSession session = CqlSession.builder()
                    .addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                    .withLocalDatacenter(CassandraEngine.LOCAL_DATACENTER)
                    // schema changes and a loaded host take longer than the driver's 2 s default
                    .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(60))
                            .build())
                    .build();
            List<List<StoreResult>> results = new ArrayList<>();
            try (BenchTables tables =
                    new BenchTables(postgres.jdbcUrl(), PostgresEngine.USER, postgres.password(), session)) {
                for (int n : sizes) {
                    results.add(cycle(n, deletableEvery, tables, platform, controlPlane, runs));
                    print(sizes.subList(0, results.size()), results, deletableEvery, overrides);
                }
                if (isolationSize > 0) {
                    isolation(isolationSize, deletableEvery, tables, platform, controlPlane, runs);
                }
            }
        }
    }

    private static final String SLOW = "cassandra-slow";

    /** One data set loaded, backed up and registered: its identifier source and its two datasets. */
    record Prepared(BenchTables.Names names, DatasetSpec accounts, DatasetSpec profiles) {}

    private static Prepared prepare(
            String label,
            int n,
            int deletableEvery,
            String cassandraConnection,
            BenchTables tables,
            LocalPlatform.Running platform,
            PlatformClient controlPlane)
            throws Exception {
        BenchTables.Names names = BenchTables.Names.of(label, n);
        String prefix = "bench-" + label.replace('_', '-');
        tables.load(names, n, deletableEvery);
        String source = prefix + "members-" + n;
        export(platform, source, "postgres", names.members(), "member_id");
        DatasetSpec accounts = spec(
                prefix + "accounts-" + n,
                StoreKind.POSTGRES,
                "pg-main",
                names.accounts(),
                "account_id",
                source,
                ConditionalColumn.timestamp("updated_at"));
        DatasetSpec profiles = spec(
                prefix + "profiles-" + n,
                StoreKind.CASSANDRA,
                cassandraConnection,
                names.profiles(),
                "member_id",
                source,
                ConditionalColumn.none());
        export(platform, accounts.name(), "postgres", names.accounts(), "member_id");
        export(platform, profiles.name(), "cassandra", names.profiles(), "member_id");
        // registered by the team (not by the operator who approves the first runs, who may not approve their own edit)
        controlPlane
                .as("owner", "owner")
                .post(
                        "/api/identifier-sources",
                        new IdentifierSource(
                                source,
                                StoreKind.POSTGRES,
                                "pg-main",
                                BenchTables.SCHEMA,
                                names.members(),
                                "member_id",
                                "left_at",
                                S3Layout.defaultBackupLocation(source, BackupFormat.JSONL_GZIP),
                                Duration.ofDays(7)))
                .require("registering " + source);
        PlatformClient owner = controlPlane.as("owner", "owner");
        owner.post("/api/datasets", accounts).require("registering " + accounts.name());
        owner.post("/api/datasets", profiles).require("registering " + profiles.name());
        return new Prepared(names, accounts, profiles);
    }

    private static List<StoreResult> cycle(
            int n,
            int deletableEvery,
            BenchTables tables,
            LocalPlatform.Running platform,
            PlatformClient controlPlane,
            RunStages runs)
            throws Exception {
        System.out.printf(Locale.ROOT, "%n== %,d rows per table: loading, exporting backups, registering ...%n", n);
        Prepared prepared = prepare("", n, deletableEvery, "cassandra-main", tables, platform, controlPlane);
        DatasetSpec accounts = prepared.accounts();
        DatasetSpec profiles = prepared.profiles();
        tables.loadAdapterCopies(prepared.names(), n, deletableEvery);
        long expected = n / deletableEvery;
        Duration timeout = Duration.ofMinutes(20).plusSeconds(n / 100);
        List<StoreResult> results = new ArrayList<>();
        List<String> stores =
                List.of(System.getProperty("bench.stores", "postgres,cassandra").split(","));
        for (DatasetSpec spec : List.of(accounts, profiles)) {
            if (!stores.contains(spec.storeKind().name().toLowerCase(Locale.ROOT))) {
                continue;
            }
            System.out.printf(Locale.ROOT, "   %s: run ...%n", spec.name());
            RunStages.Result run = runs.run(spec.name(), timeout);
            long deleted =
                    run.run().path("counts").path("deletion").path("deleted").asLong(0);
            if (deleted != expected) {
                throw new IllegalStateException(spec.name() + " deleted " + deleted + " rows, expected " + expected
                        + ": the figures would not compare like with like");
            }
            if (spec.storeKind() == StoreKind.POSTGRES && tables.postgresRows(spec.table()) != n - expected) {
                throw new IllegalStateException(spec.table() + " holds " + tables.postgresRows(spec.table())
                        + " rows after the run, expected " + (n - expected));
            }
            DatasetSpec copy = DatasetSpec.builder()
                    .name("adapter-" + spec.name())
                    .storeKind(spec.storeKind())
                    .connectionRef(spec.connectionRef())
                    .namespace(BenchTables.SCHEMA)
                    .table("adapter_" + spec.table())
                    .keyColumns(spec.keyColumns())
                    .identifierColumn(spec.identifierColumn())
                    .identifierSource(spec.identifierSource())
                    .conditionalColumn(spec.conditionalColumn())
                    .backup(spec.backup())
                    .limits(spec.limits())
                    .ownerTeam(TEAM)
                    .build();
            String key = spec.keyColumns().partition().get(0);
            AdapterRate.Measured adapter = AdapterRate.measure(
                    connection(platform, spec.connectionRef()), copy, key, n, deletableEvery, TASK_SIZE);
            results.add(new StoreResult(
                    spec.storeKind().name().toLowerCase(Locale.ROOT), n, deleted, run.stages(), adapter));
        }
        return results;
    }

    /**
     * One store never holds back another: a PostgreSQL run's deletion rate alone, then while a Cassandra run deletes
     * through a store pinned to the floor ({@value #SLOW}, 10 rows/s), which is cancelled afterwards.
     */
    private static void isolation(
            int n,
            int deletableEvery,
            BenchTables tables,
            LocalPlatform.Running platform,
            PlatformClient controlPlane,
            RunStages runs)
            throws Exception {
        System.out.printf(
                Locale.ROOT, "%n== isolation, %,d rows per table: loading, exporting backups, registering ...%n", n);
        Prepared solo = prepare("solo_", n, deletableEvery, "cassandra-main", tables, platform, controlPlane);
        Prepared beside = prepare("iso_", n, deletableEvery, SLOW, tables, platform, controlPlane);
        Duration timeout = Duration.ofMinutes(20).plusSeconds(n / 100);
        System.out.printf(Locale.ROOT, "   %s alone ...%n", solo.accounts().name());
        double alone = deletionRate(runs.run(solo.accounts().name(), timeout));
        String slowRun = runs.trigger(beside.profiles().name());
        runs.awaitDeleting(slowRun, timeout);
        System.out.printf(
                Locale.ROOT,
                "   %s while %s deletes at the floor ...%n",
                beside.accounts().name(),
                beside.profiles().name());
        long slowBefore = runs.deleted(slowRun);
        double besideSlow = deletionRate(runs.run(beside.accounts().name(), timeout));
        long slowDeleted = runs.deleted(slowRun) - slowBefore;
        runs.cancel(slowRun);
        System.out.println();
        System.out.println("| PostgreSQL run of " + String.format(Locale.ROOT, "%,d", n / deletableEvery)
                + " rows | deletion rows/s | of alone |");
        System.out.println("|---|---|---|");
        System.out.printf(Locale.ROOT, "| alone | %,.0f | 100 %% |%n", alone);
        System.out.printf(
                Locale.ROOT,
                "| beside a Cassandra run whose store is held at 10 rows/s (%,d of its rows reported"
                        + " deleted meanwhile) | %,.0f | %.0f %% |%n",
                slowDeleted,
                besideSlow,
                100 * besideSlow / alone);
    }

    private static double deletionRate(RunStages.Result run) {
        long deleted = run.run().path("counts").path("deletion").path("deleted").asLong(0);
        return deleted / Math.max(run.stages().get(Stage.DELETION).wall().toNanos() / 1e9, 1e-3);
    }

    private static DatasetSpec spec(
            String name,
            StoreKind kind,
            String connection,
            String table,
            String key,
            String source,
            ConditionalColumn conditional) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(kind)
                .connectionRef(connection)
                .namespace(BenchTables.SCHEMA)
                .table(table)
                .keyColumns(KeyColumns.partitionOnly(key))
                .identifierColumn("member_id")
                .identifierSource(source)
                .conditionalColumn(conditional)
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam(TEAM)
                .build();
    }

    private static void export(
            LocalPlatform.Running platform, String dataset, String store, String table, String identifier)
            throws Exception {
        PostgresEngine postgres = platform.engine(PostgresEngine.class);
        CassandraEngine cassandra = platform.engine(CassandraEngine.class);
        S3Engine s3 = platform.engine(S3Engine.class);
        Map<String, String> options = new LinkedHashMap<>();
        options.put("store", store);
        if (store.equals("cassandra")) {
            options.put("contact-points", cassandra.contactPoint());
            options.put("datacenter", CassandraEngine.LOCAL_DATACENTER);
            options.put("consistency", "ONE");
            options.put("keyspace", BenchTables.SCHEMA);
            options.put("parts", "4");
        } else {
            options.put("jdbc-url", postgres.jdbcUrl());
            options.put("user", PostgresEngine.USER);
            options.put("password", postgres.password());
            options.put("schema", BenchTables.SCHEMA);
        }
        options.put("dataset", dataset);
        options.put("table", table);
        options.put("identifier-column", identifier);
        options.put("format", BackupFormat.JSONL_GZIP.name());
        options.put("s3-endpoint", s3.endpoint().toString());
        options.put("s3-region", s3.region());
        options.put("s3-access-key", s3.accessKey());
        options.put("s3-secret-key", s3.secretKey());
        options.put("s3-bucket", s3.bucket());
        options.put("s3-path-style", "true");
        BackupExporterMain.run(options);
    }

    /** The connection {@code ref} as the services have it ({@code erasure.connections[ref].settings[...]}). */
    private static StoreConnection connection(LocalPlatform.Running platform, String ref) {
        String prefix = "erasure.connections[" + ref + "].";
        Map<String, String> settings = new LinkedHashMap<>();
        platform.properties().forEach((name, value) -> {
            if (name.startsWith(prefix + "settings[") && name.endsWith("]")) {
                settings.put(name.substring((prefix + "settings[").length(), name.length() - 1), value);
            }
        });
        return new StoreConnection(ref, StoreKind.valueOf(platform.properties().get(prefix + "kind")), settings);
    }

    private static void print(
            List<Integer> sizes, List<List<StoreResult>> results, int deletableEvery, Map<String, String> overrides) {
        System.out.println();
        System.out.printf(
                Locale.ROOT,
                "Pipeline benchmark: 1 in %d rows deletable, tasks of %d keys%s%n",
                deletableEvery,
                TASK_SIZE,
                overrides.isEmpty() ? "" : ", services with " + overrides);
        System.out.println("| rows | store | stage | rows in stage | time | rows/s | CPU-s, services | CPU-s, host |"
                + " µs per row |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (int i = 0; i < results.size(); i++) {
            for (StoreResult result : results.get(i)) {
                for (Stage stage : Stage.values()) {
                    Measured measured = result.stages().get(stage);
                    long rows = switch (stage) {
                        case AUDIT -> result.rows();
                        case VALIDATION, DELETION, VERIFICATION -> result.deleted();
                        case APPROVAL -> 0;
                    };
                    double seconds = measured.wall().toNanos() / 1e9;
                    // a stage shorter than the poll may be seen only after it ended: no rate can be told from it
                    boolean rated = rows > 0 && seconds >= RunStages.POLL.toNanos() / 1e9;
                    System.out.printf(
                            Locale.ROOT,
                            "| %,d | %s | %s | %,d | %s | %s | %.1f | %.1f | %s |%n",
                            sizes.get(i),
                            result.store(),
                            stage.name().toLowerCase(Locale.ROOT),
                            rows,
                            rated || rows == 0
                                    ? String.format(Locale.ROOT, "%.1f s", seconds)
                                    : "< " + RunStages.POLL.toMillis() + " ms",
                            rated ? String.format(Locale.ROOT, "%,.0f", rows / seconds) : "–",
                            measured.serviceCpuSeconds(),
                            measured.hostCpuSeconds(),
                            rated ? String.format(Locale.ROOT, "%,.0f", seconds * 1e6 / rows) : "–");
                }
                Measured deletion = result.stages().get(Stage.DELETION);
                StringBuilder byService = new StringBuilder();
                for (int k = 0; k < deletion.perService().length; k++) {
                    byService
                            .append(k == 0 ? "" : ", ")
                            .append(SERVICE_NAMES.get(k))
                            .append(String.format(Locale.ROOT, " %.1f", deletion.perService()[k]));
                }
                System.out.printf(
                        Locale.ROOT,
                        "| %,d | %s | deletion, CPU-s by service | %s | | | | | |%n",
                        sizes.get(i),
                        result.store(),
                        byService);
                double pipelineRate =
                        result.deleted() / Math.max(deletion.wall().toNanos() / 1e9, 1e-3);
                System.out.printf(
                        Locale.ROOT,
                        "| %,d | %s | adapter alone (unthrottled) | %,d | %.1f s | %,.0f | – | – | %,.0f |"
                                + "  deletion at %.0f %% of it%n",
                        sizes.get(i),
                        result.store(),
                        result.adapter().deleted(),
                        result.adapter().seconds(),
                        result.adapter().rowsPerSecond(),
                        result.adapter().seconds() * 1e6 / result.adapter().deleted(),
                        100 * pipelineRate / result.adapter().rowsPerSecond());
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
