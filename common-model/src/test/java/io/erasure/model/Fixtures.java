package io.erasure.model;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** Shared sample values for the tests. */
public final class Fixtures {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    public static final Instant T0 = Instant.parse("2024-01-31T02:00:00Z");
    public static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(T0);

    private Fixtures() {}

    /** Cassandra table orders(customer_id, order_id) keyed by customer, with a Redis cache and a Cassandra copy. */
    public static DatasetSpec.Builder cassandraOrders() {
        return DatasetSpec.builder()
                .name("orders")
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace("shop")
                .table("orders")
                .keyColumns(KeyColumns.of(List.of("customer_id"), List.of("order_id")))
                .identifierColumn("customer_id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation("orders", BackupFormat.JSONL_GZIP))
                .copies(List.of(
                        new DatasetCopy(
                                "orders-cache",
                                StoreKind.REDIS,
                                "redis-main",
                                new CopyTarget.KeyTemplate("order:{customer_id}:{order_id}")),
                        new DatasetCopy(
                                "orders-by-day",
                                StoreKind.CASSANDRA,
                                "cassandra-main",
                                new CopyTarget.TableMapping(
                                        "shop",
                                        "orders_by_day",
                                        Map.of("customer_id", "customer_id", "order_id", "order_id")))))
                .limits(new DeletionLimits(0.05, 100_000L))
                .ownerTeam("checkout");
    }

    public static DatasetSpec orders() {
        return cassandraOrders().build();
    }

    public static DatasetSpec.Builder postgresAccounts() {
        return DatasetSpec.builder()
                .name("accounts")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("public")
                .table("accounts")
                .keyColumns(KeyColumns.partitionOnly("account_id"))
                .identifierColumn("customer_id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation("accounts", BackupFormat.CSV))
                .limits(DeletionLimits.fraction(0.01))
                .ownerTeam("identity");
    }

    public static IdentifierSource customers() {
        return new IdentifierSource(
                "customers",
                StoreKind.POSTGRES,
                "pg-main",
                "public",
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation("customers", BackupFormat.JSONL_GZIP),
                Duration.ofDays(3));
    }

    /** An ordered key map. */
    public static Map<String, Object> key(Object... columnsAndValues) {
        Map<String, Object> key = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            key.put((String) columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return key;
    }
}
