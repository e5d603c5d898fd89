package io.erasure.store.s3.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectTemplateTest {

    @Test
    void aPlainTemplateAddressesOneObject() {
        ObjectTemplate.RowTarget target = template("exports/{customer_id}.json").render(Map.of("customer_id", 42L));

        assertThat(target).isEqualTo(new ObjectTemplate.RowTarget("exports/42.json", false));
        assertThat(target.owns("exports/42.json")).isTrue();
        assertThat(target.owns("exports/42.json.bak")).isFalse();
    }

    @Test
    void aPrefixTemplateOwnsEveryObjectUnderItButNotItsSiblings() {
        ObjectTemplate.RowTarget target = template("exports/{customer_id}/").render(Map.of("customer_id", 1));

        assertThat(target.owns("exports/1/profile.json")).isTrue();
        assertThat(target.owns("exports/1/orders/2024.csv")).isTrue();
        assertThat(target.owns("exports/12/profile.json")).isFalse();
        assertThat(target.owns("exports/1.json")).isFalse();
    }

    @Test
    void numbersRenderAsJsonReadersGiveThemBack() {
        ObjectTemplate template = template("exports/{customer_id}.json");

        assertThat(template.render(Map.of("customer_id", 42.0)).key()).isEqualTo("exports/42.json");
        assertThat(template.render(Map.of("customer_id", new BigDecimal("42.50")))
                        .key())
                .isEqualTo("exports/42.5.json");
    }

    @Test
    void aValueWithASlashOrNoCharactersIsRefused() {
        ObjectTemplate template = template("exports/{customer_id}/");

        assertThatThrownBy(() -> template.render(Map.of("customer_id", "1/2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contain no '/'");
        assertThatThrownBy(() -> template.render(Map.of("customer_id", "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-empty");
    }

    @Test
    void theAllowListIsCheckedOnTheTemplatesLiteralPrefix() {
        List<String> allowed = List.of("exports/", "shared/erasure/");

        assertThat(ObjectTemplate.of(spec("exports/{customer_id}.json"), allowed, "key-prefixes")
                        .literalPrefix())
                .isEqualTo("exports/");
        assertThat(ObjectTemplate.of(spec("shared/erasure/x-{customer_id}/"), allowed, "key-prefixes")
                        .isPrefix())
                .isTrue();
        assertThatThrownBy(() -> ObjectTemplate.of(spec("shared/{customer_id}/"), allowed, "key-prefixes"))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'shared/{customer_id}/'");
        assertThatThrownBy(() -> ObjectTemplate.of(spec("{customer_id}/exports/"), allowed, "key-prefixes"))
                .isInstanceOf(StoreException.Fatal.class);
        assertThat(ObjectTemplate.of(spec("{customer_id}/exports/"), List.of(), "key-prefixes")
                        .literalPrefix())
                .isEmpty();
    }

    private static ObjectTemplate template(String template) {
        return ObjectTemplate.of(spec(template), List.of(), "key-prefixes");
    }

    private static DatasetSpec spec(String template) {
        return DatasetSpec.builder()
                .name("exports")
                .storeKind(StoreKind.S3_OBJECT)
                .connectionRef("s3")
                .namespace("exports")
                .table("exports")
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .target(new CopyTarget.KeyTemplate(template))
                .backup(S3Layout.defaultBackupLocation("exports", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("exports")
                .build();
    }
}
