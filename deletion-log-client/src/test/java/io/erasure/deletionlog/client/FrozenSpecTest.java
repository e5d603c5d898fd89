package io.erasure.deletionlog.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class FrozenSpecTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final DatasetSpec SPEC = DatasetSpec.builder()
            .name("profiles")
            .storeKind(StoreKind.CASSANDRA)
            .connectionRef("cassandra-main")
            .namespace("demo")
            .table("profiles")
            .keyColumns(KeyColumns.partitionOnly("id"))
            .identifierColumn("id")
            .identifierSource("customers")
            .conditionalColumn(ConditionalColumn.none())
            .backup(new BackupLocation("backups/profiles/", BackupFormat.JSONL_GZIP))
            .limits(DeletionLimits.fraction(0.5))
            .ownerTeam("demo-team")
            .build();

    @Test
    void theDigestIsOfTheCanonicalFormSoFieldOrderNeverChangesIt() {
        ObjectNode tree = JSON.valueToTree(SPEC);
        ObjectNode reversed = JSON.createObjectNode();
        List<String> names = List.copyOf(tree.propertyNames());
        for (int i = names.size() - 1; i >= 0; i--) {
            reversed.set(names.get(i), tree.get(names.get(i)));
        }
        DatasetSpec reread = JSON.readValue(JSON.writeValueAsString(reversed), DatasetSpec.class);

        assertThat(FrozenSpec.digest(reread, JSON))
                .isEqualTo(FrozenSpec.digest(SPEC, JSON))
                .startsWith("spec-v1:");
        assertThat(FrozenSpec.digest(SPEC.toBuilder().table("other").build(), JSON))
                .isNotEqualTo(FrozenSpec.digest(SPEC, JSON));
    }

    @Test
    void theDifferencesNameEachFieldWithBothValues() {
        FrozenSpec frozen = FrozenSpec.of("run-1", SPEC, null, Instant.EPOCH, JSON);
        DatasetSpec asked = SPEC.toBuilder()
                .table("payroll")
                .copies(List.of(new DatasetCopy(
                        "extra",
                        StoreKind.CASSANDRA,
                        "cassandra-main",
                        new CopyTarget.TableMapping("demo", "extra", Map.of("id", "id")))))
                .build();

        assertThat(frozen.differencesFrom(asked, JSON))
                .hasSize(2)
                .anySatisfy(line -> assertThat(line)
                        .startsWith("copies: [")
                        .contains("extra")
                        .endsWith("(frozen: [])"))
                .anySatisfy(line -> assertThat(line).isEqualTo("table: \"payroll\" (frozen: \"profiles\")"));
        assertThat(frozen.differencesFrom(SPEC, JSON)).isEmpty();
    }
}
