package io.erasure.chaos;

import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalInfraMain;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.RedisEngine;
import io.erasure.local.LocalPlatform;
import io.erasure.local.demo.DemoCycle;
import io.erasure.local.demo.PlatformClient;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * The platform under fault: started as {@code ./erasure-local} starts it (the five engines on their fixed ports with
 * persistent data, so they can be restarted, and the six services as separate JVMs), with the target PostgreSQL
 * connection ({@code pg-main}) behind a {@link TcpGate} that can stall it, deletion capped so a run's deletion lasts
 * long enough to be hit, and the chaos datasets registered.
 */
final class ChaosPlatform implements AutoCloseable {

    static final String SOURCE = "chaos-members";
    static final String PROFILES = "chaos-profiles";
    static final String ORDERS = "chaos-orders";
    static final String CACHE = "profile-cache";
    static final String TEAM = "demo-team"; // the local owner's team
    /** Rows per second each target store takes: a run's deletion of ~100 profiles or ~200 orders lasts seconds. */
    static final int DELETION_RATE = 25;

    final LocalPlatform.Running running;
    final TcpGate gate;
    final PlatformClient owner;
    final PlatformClient operator;
    final PlatformClient recovery;
    final ChaosStores stores;

    private ChaosPlatform(LocalPlatform.Running running, TcpGate gate, PlatformClient viewer) {
        this.running = running;
        this.gate = gate;
        this.owner = viewer.as("owner", "owner");
        this.operator = viewer.as("operator", "operator");
        this.recovery = viewer.as("recovery", "recovery").at(URI.create("http://127.0.0.1:8085"));
        PostgresEngine postgres = running.engine(PostgresEngine.class);
        CassandraEngine cassandra = running.engine(CassandraEngine.class);
        RedisEngine redis = running.engine(RedisEngine.class);
        this.stores = new ChaosStores(
                postgres.jdbcUrl(),
                PostgresEngine.USER,
                postgres.password(),
                cassandra.contactPoint(),
                CassandraEngine.LOCAL_DATACENTER,
                "redis://" + redis.host() + ":" + redis.port());
    }

    /** Starts everything from the services' jars built in {@code project}, with engine data under {@code root}. */
    static ChaosPlatform start(Path project, Path root) throws Exception {
        TcpGate gate = new TcpGate(new InetSocketAddress("127.0.0.1", LocalInfraMain.POSTGRES_PORT));
        LocalPlatform.Running running;
        try {
            running = LocalPlatform.start(project, root, properties -> adjusted(properties, gate));
        } catch (RuntimeException | InterruptedException e) {
            gate.close();
            throw e;
        }
        PlatformClient viewer = new PlatformClient(
                JsonMapper.builder().build(), URI.create("http://127.0.0.1:8080"), "viewer", "viewer");
        ChaosPlatform platform = new ChaosPlatform(running, gate, viewer);
        try {
            platform.stores.createTables();
            platform.register();
            return platform;
        } catch (Exception e) {
            platform.close();
            throw e;
        }
    }

    private static Map<String, String> adjusted(Map<String, String> properties, TcpGate gate) {
        Map<String, String> adjusted = new LinkedHashMap<>(properties);
        String pg = "erasure.connections[pg-main].settings[";
        adjusted.put(pg + "url]", "jdbc:postgresql://127.0.0.1:" + gate.port() + "/" + PostgresEngine.DATABASE);
        adjusted.put(pg + "hierarchy." + ORDERS + ".child.items.table]", "chaos.order_items");
        adjusted.put(pg + "hierarchy." + ORDERS + ".child.items.references]", "order_id=order_id");
        adjusted.put(pg + "hierarchy." + ORDERS + ".child.items.updated-at]", "updated_at");
        // restores at the same pace, so that a recovery-service kill lands while one runs
        adjusted.put("erasure.recovery.rows-per-second", Integer.toString(2 * DELETION_RATE));
        // a recovery killed with its service is failed as interrupted after this long (production: 2 minutes)
        adjusted.put("erasure.recovery.abandoned-after", "30s");
        for (String store : new String[] {"pg-main", "cassandra-main", "redis-main"}) {
            adjusted.put("erasure.deletion.store-max-rows-per-second[" + store + "]", Integer.toString(DELETION_RATE));
        }
        return adjusted;
    }

    private void register() {
        IdentifierSource source = new IdentifierSource(
                SOURCE,
                StoreKind.POSTGRES,
                "pg-main",
                ChaosStores.SCHEMA,
                "members",
                "member_id",
                "left_at",
                S3Layout.defaultBackupLocation(SOURCE, BackupFormat.JSONL_GZIP),
                Duration.ofDays(7));
        registerOnce("/api/identifier-sources", source.ownedBy(TEAM), SOURCE);
        DatasetSpec profiles = DatasetSpec.builder()
                .name(PROFILES)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace(ChaosStores.SCHEMA)
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("member_id"))
                .identifierColumn("member_id")
                .identifierSource(SOURCE)
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(PROFILES, BackupFormat.JSONL_GZIP))
                .copies(List.of(new DatasetCopy(
                        CACHE, StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate("chaos-profile:{member_id}"))))
                .limits(DeletionLimits.fraction(0.2))
                .ownerTeam(TEAM)
                .build();
        DatasetSpec orders = DatasetSpec.builder()
                .name(ORDERS)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace(ChaosStores.SCHEMA)
                .table("orders")
                .keyColumns(KeyColumns.partitionOnly("order_id"))
                .identifierColumn("member_id")
                .identifierSource(SOURCE)
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(ORDERS, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.2))
                .ownerTeam(TEAM)
                .build();
        registerOnce("/api/datasets", profiles, PROFILES);
        registerOnce("/api/datasets", orders, ORDERS);
    }

    private void registerOnce(String path, Object body, String name) {
        PlatformClient.Answer answer = owner.post(path, body);
        if (answer.status() != 409) {
            answer.require("registering " + name);
        }
    }

    /**
     * Exports {@code chaos.<table>} of {@code store} ("postgres" or "cassandra") as a new backup snapshot of
     * {@code dataset}.
     */
    void backup(String dataset, String store, String table) throws Exception {
        DemoCycle.backup(running.exportOptions(), dataset, store, ChaosStores.SCHEMA, table);
    }

    /** The states a run ends in. */
    static final Set<String> FINAL = Set.of("COMPLETED", "FAILED", "CANCELLED", "REJECTED", "DRY_RUN_COMPLETED");

    @Override
    public void close() {
        try {
            stores.close();
        } catch (RuntimeException ignored) {
            // the engines go away below anyway
        }
        running.close();
        gate.close();
    }
}
