package io.erasure.controlplane.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.controlplane.ownership.OwnershipProperties.Grant;
import io.erasure.controlplane.ownership.OwnershipProperties.LimitsCeiling;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Grants matched by prefix must not be escaped by a URL that a server normalises out of the granted path. */
class OwnershipRulesTest {

    private final OwnershipRules rules = new OwnershipRules(new OwnershipProperties(
            List.of(
                    new Grant(
                            "payments",
                            "pg-main",
                            List.of("payments"),
                            List.of(),
                            List.of(),
                            List.of(),
                            List.of("backups/")),
                    new Grant(
                            "payments", "search-main", List.of(), List.of(), List.of("ledger-v"), List.of(), List.of()),
                    new Grant(
                            "payments",
                            "callbacks",
                            List.of(),
                            List.of(),
                            List.of(),
                            List.of("https://api.example.com/payments/"),
                            List.of())),
            new LimitsCeiling(0.5, 1_000_000)));

    @Test
    void aCallbackUnderTheGrantedPathIsCovered() {
        assertThat(rules.refusal(withCallback("https://api.example.com/payments/erasure")))
                .isEmpty();
    }

    @Test
    void aCallbackClimbingOutOfTheGrantedPathIsRefusedHoweverItIsSpelt() {
        for (String url : List.of(
                "https://api.example.com/payments/../orders/erasure",
                "https://api.example.com/payments/%2e%2e/orders/erasure",
                "https://api.example.com/payments/..%2Forders/erasure",
                "https://api.example.com/payments/%252e%252e/orders/erasure")) {
            assertThat(rules.refusal(withCallback(url)))
                    .as(url)
                    .hasValueSatisfying(refusal -> assertThat(refusal).contains("dot segment or an encoded"));
        }
    }

    @Test
    void onlyThePathCountsNotAQueryThatSpellsADotOrASlash() {
        for (String url : List.of(
                "https://api.example.com/payments/erasure?next=%2F..%2Fhome&v=%2e1",
                "https://api.example.com/payments/erasure?back=../home")) {
            assertThat(rules.refusal(withCallback(url))).as(url).isEmpty();
        }
    }

    @Test
    void aBlankKeyPrefixIsRefusedAtStart() {
        assertThatThrownBy(() -> new OwnershipProperties(
                        List.of(new Grant(
                                "payments", "redis-main", List.of(), List.of(), List.of(" "), List.of(), List.of())),
                        new LimitsCeiling(0.5, 1)))
                .hasMessageContaining("key-prefixes has a blank entry");
    }

    @Test
    void aSearchIndexIsGrantedByItsNamesPrefix() {
        assertThat(rules.refusal(withSearchIndex("ledger-v1"))).isEmpty();
        assertThat(rules.refusal(withSearchIndex("ledger-archive")))
                .hasValueSatisfying(refusal -> assertThat(refusal).contains("search index ledger-archive"));
    }

    private static DatasetSpec withSearchIndex(String index) {
        return withCallback("https://api.example.com/payments/erasure").toBuilder()
                .copies(List.of(new DatasetCopy(
                        "search",
                        StoreKind.OPENSEARCH,
                        "search-main",
                        new CopyTarget.SearchIndex(index, "ledger-{id}", null, null))))
                .build();
    }

    private static DatasetSpec withCallback(String url) {
        return DatasetSpec.builder()
                .name("ledger")
                .storeKind(StoreKind.POSTGRES)
                .connectionRef("pg-main")
                .namespace("payments")
                .table("ledger")
                .keyColumns(KeyColumns.partitionOnly("id"))
                .identifierColumn("id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation("ledger", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.1))
                .ownerTeam("payments")
                .copies(List.of(new DatasetCopy(
                        "partner",
                        StoreKind.HTTP_CALLBACK,
                        "callbacks",
                        new CopyTarget.HttpCallback(url, "POST", Map.of(), "{\"keys\": {keys}}", List.of("id"), null))))
                .build();
    }
}
