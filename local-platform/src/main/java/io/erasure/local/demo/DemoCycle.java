package io.erasure.local.demo;

import io.erasure.backup.export.BackupExporterMain;
import io.erasure.infra.CassandraEngine;
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
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * One full demo cycle on a running platform: live data, backups, registration, one run per dataset
 * (approved by an operator when held), then a summary of what each step did, against what the
 * generated data says should happen.
 */
public final class DemoCycle {

    public static final String SOURCE = "departed-members";
    public static final String PROFILES = "member-profiles";
    public static final String ORDERS = "orders";
    public static final String TEAM = "demo-team";

    private static final Set<String> FINAL_STATES =
            Set.of("COMPLETED", "FAILED", "CANCELLED", "REJECTED", "DRY_RUN_COMPLETED");

    private final DemoData data;
    private final Map<String, String> exportOptions;
    private final CassandraEngine cassandra;
    private final PlatformClient owner;
    private final PlatformClient operator;
    private final PlatformClient logReader;
    private final PrintStream out;

    /**
     * @param exportOptions options of {@link BackupExporterMain} shared by every export (S3, JDBC, Cassandra)
     * @param cassandra     the demo's node, whose snapshots make the profiles' Medusa backups
     * @param deletionLog   the deletion-log service's base URL
     */
    public DemoCycle(
            DemoData data,
            Map<String, String> exportOptions,
            CassandraEngine cassandra,
            PlatformClient controlPlane,
            URI deletionLog,
            PrintStream out) {
        this.data = data;
        this.exportOptions = Map.copyOf(exportOptions);
        this.cassandra = cassandra;
        this.owner = controlPlane.as("owner", "owner");
        this.operator = controlPlane.as("operator", "operator");
        this.logReader = operator.at(deletionLog);
        this.out = out;
    }

    public record Result(Map<String, JsonNode> runs, Map<String, Long> logged) {}

    public Result run() throws Exception {
        long started = System.nanoTime();
        out.println("Demo: generating live data (" + DemoData.MEMBERS + " members, "
                + DemoData.expected().departed() + " departed) ...");
        data.generate();
        out.println("Demo: exporting backups to S3 ...");
        backup(SOURCE, "postgres", "members");
        // profiles are backed up as a Cassandra team with cassandra-medusa would: the cluster's own SSTables
        MedusaProfilesBackup.backUp(exportOptions, cassandra);
        // orders are backed up as a team on Amazon RDS would: a snapshot export to S3, Parquet files and its own info
        RdsOrdersExport.export(exportOptions);
        data.touchAfterBackup();
        out.println("Demo: registering the identifier source and the datasets ...");
        register();
        Map<String, String> runIds = new LinkedHashMap<>();
        for (String dataset : List.of(PROFILES, ORDERS)) {
            runIds.put(
                    dataset,
                    owner.post("/api/datasets/" + dataset + "/runs", null)
                            .require("triggering a run of " + dataset)
                            .path("id")
                            .asString());
        }
        Map<String, JsonNode> runs = new LinkedHashMap<>();
        Map<String, Long> logged = new LinkedHashMap<>();
        for (var entry : runIds.entrySet()) {
            JsonNode run = awaitEnd(entry.getKey(), entry.getValue());
            runs.put(entry.getKey(), run);
            logged.put(entry.getKey(), awaitLogged(entry.getValue(), deleted(run)));
        }
        printSummary(runs, logged, Duration.ofNanos(System.nanoTime() - started));
        return new Result(runs, logged);
    }

    /**
     * Exports {@code demo.<table>} of {@code store} ("postgres" or "cassandra") as a new backup snapshot of
     * {@code dataset}.
     */
    public void backup(String dataset, String store, String table) throws Exception {
        backup(exportOptions, dataset, store, "demo", table);
    }

    /**
     * Exports {@code <namespace>.<table>} of {@code store} ("postgres" or "cassandra") as a new backup snapshot of
     * {@code dataset} (gzip JSON Lines, identifier column {@code member_id}), with {@code exportOptions} reaching the
     * engines (the other store's connection options are left out).
     */
    public static void backup(
            Map<String, String> exportOptions, String dataset, String store, String namespace, String table)
            throws Exception {
        Map<String, String> options = new LinkedHashMap<>(exportOptions);
        options.put("store", store);
        options.put("dataset", dataset);
        options.put("table", table);
        options.put(store.equals("cassandra") ? "keyspace" : "schema", namespace);
        options.put("identifier-column", "member_id");
        options.put("format", BackupFormat.JSONL_GZIP.name());
        options.keySet()
                .removeIf(name -> store.equals("cassandra")
                        ? Set.of("jdbc-url", "user", "password").contains(name)
                        : Set.of("contact-points", "datacenter").contains(name));
        BackupExporterMain.run(options);
    }

    /** The demo's live data, for tests that look at the stores. */
    public DemoData data() {
        return data;
    }

    private void register() {
        IdentifierSource source = new IdentifierSource(
                SOURCE,
                StoreKind.POSTGRES,
                "pg-main",
                "demo",
                "members",
                "member_id",
                "left_at",
                S3Layout.defaultBackupLocation(SOURCE, BackupFormat.JSONL_GZIP),
                Duration.ofDays(7));
        // the team registers the source its datasets use: the operator who approves their first runs edited neither
        registerOnce("/api/identifier-sources", owner, source.ownedBy(TEAM), SOURCE);
        DatasetSpec profiles = DatasetSpec.builder()
                .name(PROFILES)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace("demo")
                .table("member_profiles")
                .keyColumns(KeyColumns.partitionOnly("member_id"))
                .identifierColumn("member_id")
                .identifierSource(SOURCE)
                .conditionalColumn(ConditionalColumn.none())
                .backup(MedusaProfilesBackup.LOCATION)
                .copies(List.of(
                        new DatasetCopy(
                                "profile-cache",
                                StoreKind.REDIS,
                                "redis-main",
                                new CopyTarget.KeyTemplate("profile:{member_id}")),
                        new DatasetCopy(
                                "profile-search",
                                StoreKind.OPENSEARCH,
                                "search-main",
                                new CopyTarget.SearchIndex(DemoData.SEARCH_INDEX, "member-{member_id}", null, null))))
                .limits(DeletionLimits.fraction(0.2))
                .ownerTeam(TEAM)
                .build();
        DatasetSpec orders = DatasetSpec.builder()
                .name(ORDERS)
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("demo")
                .table("orders")
                .keyColumns(KeyColumns.partitionOnly("order_id"))
                .identifierColumn("member_id")
                .identifierSource(SOURCE)
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(RdsOrdersExport.LOCATION)
                .limits(DeletionLimits.fraction(0.2))
                .ownerTeam(TEAM)
                .build();
        registerOnce("/api/datasets", owner, profiles, PROFILES);
        registerOnce("/api/datasets", owner, orders, ORDERS);
    }

    private static void registerOnce(String path, PlatformClient as, Object body, String name) {
        PlatformClient.Answer answer = as.post(path, body);
        if (answer.status() != 409) {
            answer.require("registering " + name);
        }
    }

    /** Waits for the run to end, approving it as an operator (neither its trigger nor its registrant) when held. */
    private JsonNode awaitEnd(String dataset, String runId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            JsonNode run = operator.get("/api/runs/" + runId).require("reading run " + runId);
            String state = run.path("state").asString();
            if (!state.equals(last)) {
                out.println("  " + dataset + " run " + runId + ": " + state
                        + (run.path("approvalReason").isString() && state.equals("AWAITING_APPROVAL")
                                ? " (" + run.path("approvalReason").asString() + ")"
                                : ""));
                last = state;
            }
            if (state.equals("AWAITING_APPROVAL")) {
                operator.post("/api/runs/" + runId + "/approve", null).require("approving run " + runId);
                out.println("  " + dataset + " run " + runId + ": approved by operator");
            } else if (FINAL_STATES.contains(state)) {
                return run;
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException(
                "the " + dataset + " run " + runId + " did not end within 10 minutes (last state " + last + ")");
    }

    /**
     * Counts the run's records in the deletion log (its rows, their child rows and its copies' entries),
     * waiting for ingestion to catch up: at least {@code atLeast}, and the same count twice in a row.
     */
    private long awaitLogged(String runId, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long previous = -1;
        long count;
        do {
            count = 0;
            String cursor = null;
            do {
                JsonNode page = logReader
                        .get("/api/log/runs/" + runId + "/records?limit=1000"
                                + (cursor == null ? "" : "&cursor=" + cursor))
                        .require("reading the deletion log of " + runId);
                count += page.path("records").size();
                cursor = page.path("nextCursor").isString()
                        ? page.path("nextCursor").asString()
                        : null;
            } while (cursor != null);
            if (count >= atLeast && count == previous) {
                return count;
            }
            previous = count;
            Thread.sleep(2000);
        } while (System.nanoTime() < deadline);
        return count;
    }

    static long deleted(JsonNode run) {
        JsonNode deletion = run.path("counts").path("deletion");
        return deletion.path("deleted").asLong(0);
    }

    private void printSummary(Map<String, JsonNode> runs, Map<String, Long> logged, Duration took) {
        DemoData.Expected expected = DemoData.expected();
        Map<String, Long> expectedDeleted = Map.of(PROFILES, expected.profiles(), ORDERS, expected.orders());
        out.println();
        out.println("Demo cycle done in " + took.toSeconds() + " s (audit -> validation -> deletion -> verification):");
        List<String> lines = new ArrayList<>();
        runs.forEach((dataset, run) -> {
            JsonNode counts = run.path("counts");
            lines.add(String.format(
                    "  %-16s run %s  %s",
                    dataset, run.path("id").asString(), run.path("state").asString()));
            JsonNode audit = counts.path("audit");
            JsonNode validation = counts.path("validation");
            lines.add(String.format(
                    "    rows scanned %,d · candidates %,d · final %,d · dropped %s",
                    audit.path("rowsScanned").asLong(0),
                    audit.path("candidates").asLong(0),
                    validation.path("final").asLong(0),
                    validation.path("droppedByReason")));
            lines.add(String.format(
                    "    deleted %,d (expected %,d) · kept as newer %,d · logged %,d",
                    deleted(run),
                    expectedDeleted.get(dataset),
                    counts.path("deletion").path("skippedNewer").asLong(0),
                    logged.get(dataset)));
            counts.path("copies").properties().forEach(copy -> {
                JsonNode reported = copy.getValue().path("reported");
                lines.add(String.format(
                        "    copy %s: deleted %,d · already absent %,d · still present %,d · failed %,d",
                        copy.getKey(),
                        reported.path("deleted").asLong(0),
                        reported.path("alreadyAbsent").asLong(0),
                        reported.path("stillPresent").asLong(0),
                        reported.path("failed").asLong(0)));
            });
        });
        lines.forEach(out::println);
        out.println("  order items deleted with their orders (children): expected " + expected.orderItems());
    }
}
