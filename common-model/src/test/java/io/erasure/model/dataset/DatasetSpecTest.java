package io.erasure.model.dataset;

import static io.erasure.model.Fixtures.JSON;
import static io.erasure.model.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.Fixtures;
import io.erasure.model.identifier.IdentifierSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class DatasetSpecTest {

    @Test
    void buildsWithDefaults() {
        DatasetSpec spec = Fixtures.orders();
        assertThat(spec.schedule()).isEqualTo("0 0 2 * * *");
        assertThat(spec.priority()).isEqualTo(DatasetSpec.DEFAULT_PRIORITY);
        assertThat(spec.quotedTable()).isEqualTo("\"shop\".\"orders\"");
        assertThat(spec.copy("orders-cache")).isPresent();
        assertThat(spec.copy("nope")).isEmpty();
        assertThat(Fixtures.postgresAccounts().copies(null).schedule(null).build())
                .satisfies(s -> assertThat(s.copies()).isEmpty())
                .satisfies(s -> assertThat(s.schedule()).isEqualTo(DatasetSpec.DEFAULT_SCHEDULE));
    }

    @Test
    void tellsWhetherTheIdentifierIsInTheKey() {
        DatasetSpec orders = Fixtures.orders();
        assertThat(orders.identifierInPartitionKey()).isTrue();
        assertThat(orders.identifierInPrimaryKey()).isTrue();

        DatasetSpec byOrder = Fixtures.cassandraOrders()
                .keyColumns(KeyColumns.of(List.of("order_id"), List.of("customer_id")))
                .build();
        assertThat(byOrder.identifierInPartitionKey()).isFalse();
        assertThat(byOrder.identifierInPrimaryKey()).isTrue();

        DatasetSpec accounts = Fixtures.postgresAccounts().build();
        assertThat(accounts.identifierInPartitionKey()).isFalse();
        assertThat(accounts.identifierInPrimaryKey()).isFalse();
    }

    @Test
    void rejectsAnInjectedTableName() {
        assertThatThrownBy(() ->
                        Fixtures.cassandraOrders().table("users; DROP TABLE x").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("table must be a lower-case identifier")
                .hasMessageContaining("'users; DROP TABLE x'");
        assertThatThrownBy(() -> Fixtures.cassandraOrders().namespace("Shop").build())
                .hasMessageStartingWith("namespace must be a lower-case identifier");
        assertThatThrownBy(() -> Fixtures.cassandraOrders()
                        .identifierColumn("customer id")
                        .build())
                .hasMessageStartingWith("identifierColumn must be a lower-case identifier");
    }

    @Test
    void conditionalColumnMustBeExplicit() {
        assertThatThrownBy(
                        () -> Fixtures.cassandraOrders().conditionalColumn(null).build())
                .hasMessageStartingWith("conditionalColumn is required")
                .hasMessageContaining("explicitly to none");
        assertThatThrownBy(() ->
                        Fixtures.postgresAccounts().conditionalColumn(null).build())
                .hasMessageStartingWith("conditionalColumn is required");
        assertThat(Fixtures.postgresAccounts()
                        .conditionalColumn(ConditionalColumn.none())
                        .build()
                        .conditionalColumn())
                .as("a relational dataset may say explicitly that its deletes are unconditional")
                .isEqualTo(ConditionalColumn.none());
        assertThat(Fixtures.postgresAccounts()
                        .conditionalColumn(ConditionalColumn.version("version"))
                        .build()
                        .conditionalColumn())
                .isEqualTo(new ConditionalColumn.Named("version", ConditionalColumn.Kind.VERSION));
    }

    @Test
    void keyColumnsNeedAPartitionKeyAndNoRepeats() {
        assertThatThrownBy(() -> KeyColumns.of(List.of(), List.of("order_id")))
                .hasMessageStartingWith("keyColumns.partition must name at least one partition key column");
        assertThatThrownBy(() -> KeyColumns.of(List.of("a"), List.of("a")))
                .hasMessageStartingWith("keyColumns.clustering[0] repeats column 'a'");
        assertThatThrownBy(() -> Fixtures.cassandraOrders().keyColumns(null).build())
                .hasMessage("keyColumns is required but was null");
    }

    @Test
    void fullKeysMustNameExactlyThePrimaryKey() {
        KeyColumns keys = KeyColumns.of(List.of("customer_id"), List.of("order_id"));
        keys.requireFullKey("key", key("customer_id", 1, "order_id", 2));
        assertThatThrownBy(() -> keys.requireFullKey("keys[0]", key("customer_id", 1)))
                .hasMessage(
                        "keys[0] must have exactly the primary key columns [customer_id, order_id], got [customer_id]");
        assertThat(keys.partitionKeyOf(key("order_id", 2, "customer_id", 1))).isEqualTo(Map.of("customer_id", 1));
    }

    @Test
    void validatesGuardrailsAndSchedule() {
        assertThatThrownBy(() -> Fixtures.cassandraOrders().limits(null).build())
                .hasMessageStartingWith("limits is required");
        assertThatThrownBy(() -> new DeletionLimits(null, null)).hasMessageStartingWith("limits must set maxFraction");
        assertThatThrownBy(() -> DeletionLimits.fraction(1.5))
                .hasMessageStartingWith("limits.maxFraction must be between 0 and 1");
        assertThatThrownBy(() -> DeletionLimits.rows(-1)).hasMessageStartingWith("limits.maxRows must be >= 0");
        assertThatThrownBy(() -> Fixtures.cassandraOrders().priority(10).build())
                .hasMessage("priority must be between 0 and 9, got 10");
        assertThatThrownBy(
                        () -> Fixtures.cassandraOrders().schedule("0 2 * * *").build())
                .hasMessageStartingWith("schedule must be a 6-field cron expression");
        assertThat(Fixtures.cassandraOrders().schedule("@daily").build().schedule())
                .isEqualTo("@daily");
        assertThat(Fixtures.cassandraOrders()
                        .schedule("0 30 3 * * MON-FRI")
                        .build()
                        .schedule())
                .isEqualTo("0 30 3 * * MON-FRI");
        assertThatThrownBy(() -> Fixtures.cassandraOrders().ownerTeam(" ").build())
                .hasMessageStartingWith("ownerTeam is required");
        assertThatThrownBy(() -> Fixtures.cassandraOrders()
                        .connectionRef("cassandra://u:p@h")
                        .build())
                .hasMessageStartingWith("connectionRef must be the name of a connection");
    }

    @Test
    void limitsAreExceededByEitherBound() {
        DeletionLimits both = new DeletionLimits(0.1, 50L);
        assertThat(both.exceededBy(10, 1_000)).isFalse();
        assertThat(both.exceededBy(101, 1_000)).isTrue();
        assertThat(both.exceededBy(51, 100_000)).isTrue();
        assertThat(both.exceededBy(0, 0)).isFalse();
        assertThat(DeletionLimits.fraction(0.5).exceededBy(1, 0))
                .as("unknown total is never under a fraction")
                .isTrue();
        assertThat(DeletionLimits.rows(10).exceededBy(10, 10)).isFalse();
    }

    @Test
    void backupPrefixStaysUnderBackups() {
        assertThat(new BackupLocation("backups/orders", BackupFormat.CSV).prefix())
                .isEqualTo("backups/orders/");
        assertThatThrownBy(() -> new BackupLocation("runs/x/", BackupFormat.CSV))
                .hasMessageStartingWith("backup.prefix must be");
        assertThatThrownBy(() -> new BackupLocation("backups/../runs/", BackupFormat.CSV))
                .hasMessageStartingWith("backup.prefix must be");
        assertThatThrownBy(() -> new BackupLocation("backups/orders/", null)).hasMessageContaining("backup.format");
    }

    @Test
    void anRdsExportHoldsParquetFilesOfAPostgresDatasetInANamedDatabaseFromANamedSource() {
        String source = "arn:aws:rds:eu-west-1:123456789012:snapshot:rds:accounts-db-";
        BackupLocation exports = BackupLocation.rdsExports("backups/rds/", "app", source);
        assertThat(exports.format()).isEqualTo(BackupFormat.PARQUET);
        assertThat(JSON.readValue(
                        "{\"prefix\": \"backups/rds\", \"layout\": \"RDS_EXPORT\", \"database\": \"app\","
                                + " \"sourceArn\": \"" + source + "\"}",
                        BackupLocation.class))
                .isEqualTo(exports);
        assertThat(JSON.writeValueAsString(BackupLocation.medusa("backups/m/")))
                .doesNotContain("database")
                .doesNotContain("sourceArn");
        assertThatThrownBy(() -> JSON.readValue(
                        "{\"prefix\": \"backups/rds/\", \"layout\": \"RDS_EXPORT\", \"sourceArn\": \"" + source + "\"}",
                        BackupLocation.class))
                .hasMessageContaining("backup.database of an RDS_EXPORT backup must name the database");
        assertThatThrownBy(() -> BackupLocation.rdsExports("backups/rds/", "app/../x", source))
                .hasMessageContaining("backup.database of an RDS_EXPORT backup");
        assertThatThrownBy(() -> BackupLocation.rdsExports("backups/rds/", "app", "arn:aws:s3:::bucket"))
                .hasMessageContaining("backup.sourceArn of an RDS_EXPORT backup must be what the audited exports'");
        assertThatThrownBy(() -> JSON.readValue(
                        "{\"prefix\": \"backups/rds/\", \"layout\": \"RDS_EXPORT\", \"database\": \"app\"}",
                        BackupLocation.class))
                .hasMessageContaining("backup.sourceArn of an RDS_EXPORT backup");
        assertThatThrownBy(() -> new BackupLocation(
                        "backups/rds/", BackupFormat.CSV, BackupLayout.RDS_EXPORT, null, "a", source))
                .hasMessageContaining("backup.format of an RDS_EXPORT backup is PARQUET");
        assertThatThrownBy(() -> new BackupLocation(
                        "backups/o/", BackupFormat.PARQUET, BackupLayout.PLATFORM, null, null, source))
                .hasMessageContaining("backup.database and backup.sourceArn apply to RDS_EXPORT backups only");
        Fixtures.postgresAccounts().backup(exports).build().requireBackupFits();
        assertThatThrownBy(
                        () -> Fixtures.cassandraOrders().backup(exports).build().requireBackupFits())
                .hasMessageContaining("backup.layout RDS_EXPORT holds Amazon RDS exports of PostgreSQL tables");
    }

    @Test
    void aMedusaBackupHoldsSSTablesOfACassandraDatasetOnly() {
        BackupLocation medusa = BackupLocation.medusa("backups/medusa/");
        assertThat(medusa.format()).isEqualTo(BackupFormat.SSTABLE);
        assertThat(JSON.readValue("{\"prefix\": \"backups/medusa\", \"layout\": \"MEDUSA\"}", BackupLocation.class))
                .isEqualTo(medusa);
        assertThat(JSON.readValue("{\"prefix\": \"backups/orders/\", \"format\": \"CSV\"}", BackupLocation.class)
                        .layout())
                .as("specs stored before layouts existed")
                .isEqualTo(BackupLayout.PLATFORM);
        assertThatThrownBy(() -> new BackupLocation("backups/orders/", BackupFormat.SSTABLE))
                .hasMessageContaining("set backup.layout to MEDUSA");
        assertThatThrownBy(() -> new BackupLocation("backups/medusa/", BackupFormat.CSV, BackupLayout.MEDUSA))
                .hasMessageContaining("backup.format of a MEDUSA backup is SSTABLE");
        BackupLocation snapshots = BackupLocation.nodetoolSnapshots("backups/snapshots/", 3);
        assertThat(JSON.readValue(
                        "{\"prefix\": \"backups/snapshots/\", \"layout\": \"NODETOOL_SNAPSHOT\", \"nodes\": 3}",
                        BackupLocation.class))
                .isEqualTo(snapshots);
        assertThat(JSON.writeValueAsString(medusa)).doesNotContain("nodes");
        assertThatThrownBy(() -> JSON.readValue(
                        "{\"prefix\": \"backups/snapshots/\", \"layout\": \"NODETOOL_SNAPSHOT\"}",
                        BackupLocation.class))
                .hasMessageContaining("backup.nodes of a NODETOOL_SNAPSHOT backup must be the number of nodes");
        assertThatThrownBy(() -> BackupLocation.nodetoolSnapshots("backups/snapshots/", 0))
                .hasMessageContaining("1 to 1000");
        assertThatThrownBy(() -> new BackupLocation("backups/medusa/", BackupFormat.SSTABLE, BackupLayout.MEDUSA, 3))
                .hasMessageContaining("backup.nodes applies to NODETOOL_SNAPSHOT backups only");
        assertThatThrownBy(
                        () -> new BackupLocation("backups/s/", BackupFormat.PARQUET, BackupLayout.NODETOOL_SNAPSHOT, 3))
                .hasMessageContaining("backup.format of a NODETOOL_SNAPSHOT backup is SSTABLE");
        assertThatThrownBy(() ->
                        Fixtures.postgresAccounts().backup(snapshots).build().requireBackupFits())
                .hasMessageContaining("backup.layout NODETOOL_SNAPSHOT holds a Cassandra cluster's SSTables");
        DatasetSpec cassandra = Fixtures.cassandraOrders().backup(medusa).build();
        cassandra.requireBackupFits();
        Fixtures.cassandraOrders().backup(snapshots).build().requireBackupFits();
        assertThatThrownBy(
                        () -> Fixtures.postgresAccounts().backup(medusa).build().requireBackupFits())
                .hasMessageContaining("backup.layout MEDUSA holds a Cassandra cluster's SSTables");
        IdentifierSource customers = Fixtures.customers();
        assertThatThrownBy(() -> new IdentifierSource(
                        customers.name(),
                        customers.storeKind(),
                        customers.connectionRef(),
                        customers.namespace(),
                        customers.table(),
                        customers.identifierColumn(),
                        customers.deletableSinceColumn(),
                        medusa,
                        customers.gracePeriod()))
                .hasMessageContaining("identifierSource.backup must be in the platform's layout");
    }

    @Test
    void copiesUseTheAddressingOfTheirStore() {
        CopyTarget.TableMapping table = new CopyTarget.TableMapping("shop", "t", Map.of("customer_id", "cid"));
        assertThatThrownBy(() -> new DatasetCopy("cache", StoreKind.REDIS, "redis-main", table))
                .hasMessageContaining("give its target as a key template");
        assertThatThrownBy(() -> new DatasetCopy("idx", StoreKind.CASSANDRA, "c", new CopyTarget.KeyTemplate("x:{a}")))
                .hasMessageContaining("give its target as a table mapping");
        assertThatThrownBy(() -> new CopyTarget.KeyTemplate("profile:all"))
                .hasMessageStartingWith("copy.keyTemplate must contain at least one {column} placeholder");
        assertThatThrownBy(() -> new CopyTarget.KeyTemplate("profile:{Customer Id}"))
                .hasMessageStartingWith("copy.keyTemplate placeholder must be a lower-case identifier");
        assertThatThrownBy(() -> new CopyTarget.KeyTemplate("profile:{customer_id"))
                .hasMessageStartingWith("copy.keyTemplate has an unbalanced");
        DatasetCopy dup = Fixtures.orders().copies().get(0);
        assertThatThrownBy(() ->
                        Fixtures.cassandraOrders().copies(List.of(dup, dup)).build())
                .hasMessageContaining("two copies named 'orders-cache'");
    }

    @Test
    void aCopyIsSeenAsADatasetOfItsOwnStore() {
        DatasetSpec orders = Fixtures.orders();
        DatasetCopy cache = orders.copy("orders-cache").orElseThrow();

        DatasetSpec view = cache.viewOf(orders);

        assertThat(view.name()).isEqualTo("orders--orders-cache");
        assertThat(view.storeKind()).isEqualTo(StoreKind.REDIS);
        assertThat(view.connectionRef()).isEqualTo("redis-main");
        assertThat(view.keyColumns().primaryKey()).containsExactly("customer_id", "order_id");
        assertThat(view.target()).isEqualTo(cache.target());
        assertThat(view.copies()).isEmpty();
        assertThat(cache.keyOf(orders, key("customer_id", 7, "order_id", "o-1", "total", 3)))
                .containsExactly(Map.entry("customer_id", 7), Map.entry("order_id", "o-1"));

        DatasetCopy byDay = orders.copy("orders-by-day").orElseThrow();
        CopyTarget.TableMapping mapping = (CopyTarget.TableMapping) byDay.target();
        DatasetSpec tableView = byDay.viewOf(orders);
        assertThat(tableView.table()).isEqualTo(mapping.table());
        assertThat(tableView.target()).isNull();
        assertThat(tableView.keyColumns().primaryKey())
                .containsExactlyElementsOf(orders.keyColumns().primaryKey().stream()
                        .map(mapping.columns()::get)
                        .toList());
        assertThat(byDay.keyOf(orders, key("customer_id", 7, "order_id", "o-1", "total", 3)))
                .containsOnlyKeys(tableView.keyColumns().primaryKey());
    }

    @Test
    void tablelessDatasetsNeedATargetAndTablesRefuseOne() {
        CopyTarget.KeyTemplate template = new CopyTarget.KeyTemplate("profile:{customer_id}");
        assertThatThrownBy(() -> Fixtures.cassandraOrders().target(template).build())
                .hasMessageContaining("target is only for stores without tables");
        assertThatThrownBy(() ->
                        Fixtures.cassandraOrders().storeKind(StoreKind.REDIS).build())
                .hasMessageContaining("give its target as a key template");
        String longName = "a".repeat(40);
        DatasetCopy copy = new DatasetCopy("b".repeat(30), StoreKind.REDIS, "redis-main", template);
        assertThatThrownBy(() -> Fixtures.cassandraOrders()
                        .name(longName)
                        .copies(List.of(copy))
                        .build())
                .hasMessageContaining("view name");
    }

    @Test
    void aDocumentIdTemplateNeverGivesTwoRowsOneId() {
        CopyTarget.SearchIndex twoColumns = new CopyTarget.SearchIndex("members", "{org}-{user}.v1", null, null);

        assertThat(twoColumns.documentId(Map.of("org", "acme", "user", "b-c.d")))
                .as("the last value runs to the literal suffix: it may hold anything")
                .isEqualTo("acme-b-c.d.v1");
        // org 'a-b', user 'c' and org 'a', user 'b-c' would both be a-b-c.v1
        assertThatThrownBy(() -> twoColumns.documentId(Map.of("org", "a-b", "user", "c")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("of column 'org' holds '-'");
        assertThat(twoColumns.documentId(Map.of("org", "a", "user", "b-c"))).isEqualTo("a-b-c.v1");
        assertThatThrownBy(() -> new CopyTarget.SearchIndex("members", "{org}{user}", null, null))
                .hasMessageContaining("nothing between them");
        assertThat(new CopyTarget.SearchIndex("members", "m-{email}", null, null)
                        .documentId(Map.of("email", "a.b-c@x")))
                .isEqualTo("m-a.b-c@x");
    }

    @Test
    void aSearchIndexNamesOneIndexAndOneWayToItsDocuments() throws Exception {
        CopyTarget.SearchIndex byId = new CopyTarget.SearchIndex("profiles-v2", "member-{member_id}", null, null);
        CopyTarget.SearchIndex byTerm = new CopyTarget.SearchIndex("activity", null, "actor.member_id", "member_id");

        assertThat(byId.sourceColumns()).containsExactly("member_id");
        assertThat(byId.documentId(key("member_id", 42))).isEqualTo("member-42");
        assertThat(byTerm.sourceColumns()).containsExactly("member_id");
        assertThat(new CopyTarget.SearchIndex("activity", null, "member_id", null).column())
                .isEqualTo("member_id");
        for (String pattern : List.of("profiles*", "a,b", "_all", "-x", "Profiles", "a b")) {
            assertThatThrownBy(() -> new CopyTarget.SearchIndex(pattern, "m-{member_id}", null, null))
                    .as(pattern)
                    .hasMessageStartingWith("copy.searchIndex.index must be one index or alias name");
        }
        assertThatThrownBy(() -> new CopyTarget.SearchIndex("p", "m-{member_id}", "member_id", null))
                .hasMessageStartingWith("copy.searchIndex needs exactly one of idTemplate");
        assertThatThrownBy(() -> new CopyTarget.SearchIndex("p", null, null, null))
                .hasMessageStartingWith("copy.searchIndex needs exactly one of idTemplate");
        assertThatThrownBy(() -> new CopyTarget.SearchIndex("p", null, "actor.member_id", null))
                .hasMessageContaining("copy.searchIndex.column");
        assertThatThrownBy(() -> new CopyTarget.SearchIndex("p", null, "Member Id", null))
                .hasMessageStartingWith("copy.searchIndex.termField must be a field name");
        assertThatThrownBy(() -> new CopyTarget.SearchIndex("p", "member", null, null))
                .hasMessageContaining("at least one {column} placeholder");
        CopyTarget read = JSON.readValue(
                "{\"type\": \"searchIndex\", \"index\": \"profiles-v2\", \"idTemplate\": \"member-{member_id}\"}",
                CopyTarget.class);
        assertThat(read).isEqualTo(byId);
        assertThatThrownBy(() -> Fixtures.cassandraOrders()
                        .storeKind(StoreKind.OPENSEARCH)
                        .build())
                .hasMessageContaining("give its target as a searchIndex");
    }

    @Test
    void httpCallbacksAreCheckedField_by_field() {
        assertThat(callback("https://owner.example.com/erase", null, "{\"keys\": {keys}}")
                        .method())
                .isEqualTo("POST");
        assertThatThrownBy(() -> callback("ftp://owner.example.com/x", "POST", "{keys}"))
                .hasMessageStartingWith("copy.httpCallback.url must be an absolute http(s) URL");
        assertThatThrownBy(() -> callback("https://user:pw@owner.example.com/x", "POST", "{keys}"))
                .hasMessageStartingWith("copy.httpCallback.url must be an absolute http(s) URL");
        assertThatThrownBy(() -> callback("https://owner.example.com/x", "GET", "{keys}"))
                .hasMessageStartingWith("copy.httpCallback.method must be one of");
        assertThatThrownBy(() -> callback("https://owner.example.com/x", "POST", "{\"ids\": []}"))
                .hasMessageStartingWith("copy.httpCallback.payloadTemplate must contain {keys}");
        assertThatThrownBy(() -> new CopyTarget.HttpCallback(
                        "https://o.example.com/x",
                        "POST",
                        Map.of("Authorization", "a\nb"),
                        "{keys}",
                        List.of("customer_id"),
                        null))
                .hasMessageContaining("single-line value");
        assertThatThrownBy(() -> new DatasetCopy(
                        "hook", StoreKind.HTTP_CALLBACK, "http-main", new CopyTarget.KeyTemplate("x:{customer_id}")))
                .hasMessageContaining("give its target as an httpCallback");
    }

    private static CopyTarget.HttpCallback callback(String url, String method, String payload) {
        return new CopyTarget.HttpCallback(
                url, method, Map.of("Authorization", "secret:owner-token"), payload, List.of("customer_id"), null);
    }

    @Test
    void keyTemplatesRenderFromTheRow() {
        CopyTarget.KeyTemplate template = new CopyTarget.KeyTemplate("order:{customer_id}:{order_id}");
        assertThat(template.placeholders()).containsExactly("customer_id", "order_id");
        assertThat(template.render(key("customer_id", 7, "order_id", "o-1", "total", 3)))
                .isEqualTo("order:7:o-1");
        assertThatThrownBy(() -> template.render(key("customer_id", 7)))
                .hasMessageContaining("needs column 'order_id'");
    }

    @Test
    void roundTripsThroughJson() {
        DatasetSpec spec = Fixtures.cassandraOrders().priority(8).build();
        String json = JSON.writeValueAsString(spec);
        assertThat(JSON.readValue(json, DatasetSpec.class)).isEqualTo(spec);

        JsonNode tree = JSON.readTree(json);
        assertThat(tree.get("storeKind").asString()).isEqualTo("CASSANDRA");
        assertThat(tree.get("conditionalColumn").get("type").asString()).isEqualTo("none");
        assertThat(tree.get("copies").get(0).get("target").get("type").asString())
                .isEqualTo("keyTemplate");
        assertThat(tree.get("copies").get(1).get("target").get("type").asString())
                .isEqualTo("table");

        DatasetSpec accounts = Fixtures.postgresAccounts().build();
        assertThat(JSON.readValue(JSON.writeValueAsString(accounts), DatasetSpec.class))
                .isEqualTo(accounts);
    }

    @Test
    void jsonValidationNamesTheField() {
        String json = JSON.writeValueAsString(Fixtures.orders())
                .replace("\"table\":\"orders\"", "\"table\":\"orders; DROP\"");
        assertThatThrownBy(() -> JSON.readValue(json, DatasetSpec.class))
                .hasMessageContaining("table must be a lower-case identifier");
        String unknownKind = JSON.writeValueAsString(Fixtures.orders()).replace("\"CASSANDRA\"", "\"mongodb\"");
        assertThatThrownBy(() -> JSON.readValue(unknownKind, DatasetSpec.class))
                .hasMessageContaining("use one of CASSANDRA, POSTGRES");
    }

    @Test
    void aRunIsSpreadOverAWindowOfTenSecondsToADay() {
        assertThat(Fixtures.orders().spreadOver()).as("not spread unless asked").isNull();
        assertThat(Fixtures.cassandraOrders()
                        .spreadOver(Duration.ofHours(6))
                        .build()
                        .spreadOver())
                .isEqualTo(Duration.ofHours(6));
        assertThat(Fixtures.cassandraOrders()
                        .spreadOver(Duration.ofSeconds(10))
                        .build()
                        .spreadOver())
                .isEqualTo(DatasetSpec.MIN_SPREAD);
        assertThat(Fixtures.cassandraOrders()
                        .spreadOver(Duration.ofDays(1))
                        .build()
                        .spreadOver())
                .isEqualTo(DatasetSpec.MAX_SPREAD);
        for (Duration outOfRange : List.of(
                Duration.ofSeconds(9),
                Duration.ZERO,
                Duration.ofHours(-6),
                Duration.ofDays(1).plusSeconds(1),
                Duration.ofDays(7))) {
            assertThatThrownBy(() ->
                            Fixtures.cassandraOrders().spreadOver(outOfRange).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("spreadOver must be an ISO-8601 duration between PT10S and P1D")
                    .hasMessageEndingWith("got " + outOfRange);
        }
    }

    @Test
    void spreadOverTravelsAsAnIsoDurationAndIsLeftOutWhenNotSet() {
        DatasetSpec spread =
                Fixtures.cassandraOrders().spreadOver(Duration.ofHours(6)).build();
        String json = JSON.writeValueAsString(spread);
        assertThat(JSON.readTree(json).get("spreadOver").asString()).isEqualTo("PT6H");
        assertThat(JSON.readValue(json, DatasetSpec.class)).isEqualTo(spread);
        assertThat(spread.toBuilder().build()).isEqualTo(spread);

        // a spec without it serializes as before, so its stored JSON and its SHA-256 in receipts do not change
        String plain = JSON.writeValueAsString(Fixtures.orders());
        assertThat(JSON.readTree(plain).has("spreadOver")).isFalse();
        String tooLong = json.replace("\"PT6H\"", "\"P7D\"");
        assertThatThrownBy(() -> JSON.readValue(tooLong, DatasetSpec.class))
                .hasMessageContaining("spreadOver must be an ISO-8601 duration between PT10S and P1D");
    }
}
