package io.erasure.support.trust;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.support.json.PlatformJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The spec digest an authorization signs: equal for equal specs however they travelled, different for any change. */
class SpecDigestTest {

    private static DatasetSpec.Builder orders(Map<String, String> mapping) {
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
                                new CopyTarget.TableMapping("shop", "orders_by_day", mapping))))
                .limits(new DeletionLimits(0.05, 100_000L))
                .ownerTeam("checkout");
    }

    @Test
    void aSpecReadBackFromJsonHasTheDigestItWasSignedWith() {
        Map<String, String> mapping = new LinkedHashMap<>();
        mapping.put("order_id", "order_id");
        mapping.put("customer_id", "customer_id");
        DatasetSpec spec = orders(mapping).build();
        JsonMapper platform = PlatformJson.mapper();
        DatasetSpec travelled = platform.readValue(platform.writeValueAsString(spec), DatasetSpec.class);
        Map<String, String> reversed = new LinkedHashMap<>();
        reversed.put("customer_id", "customer_id");
        reversed.put("order_id", "order_id");
        assertThat(SpecDigest.of(travelled))
                .isEqualTo(SpecDigest.of(spec))
                .isEqualTo(SpecDigest.of(orders(reversed).build()))
                .hasSize(64);
    }

    @Test
    void anotherTableConnectionConditionOrCopyIsAnotherDigest() {
        DatasetSpec spec = orders(Map.of("order_id", "order_id")).build();
        String digest = SpecDigest.of(spec);
        assertThat(SpecDigest.of(spec.toBuilder().table("accounts").build())).isNotEqualTo(digest);
        assertThat(SpecDigest.of(
                        spec.toBuilder().connectionRef("cassandra-other").build()))
                .isNotEqualTo(digest);
        assertThat(SpecDigest.of(
                        spec.toBuilder().copies(spec.copies().subList(0, 1)).build()))
                .isNotEqualTo(digest);
        assertThat(SpecDigest.of(spec.toBuilder().namespace("billing").build())).isNotEqualTo(digest);
    }
}
