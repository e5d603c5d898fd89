package io.erasure.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresSettingsTest {

    @Test
    void defaultsAndNoPasswordInLogs() {
        PostgresSettings settings = PostgresSettings.from(
                connection(Map.of("url", "jdbc:postgresql://db/app", "username", "erasure", "password", "s3cret")));

        assertThat(settings.batchSize()).isEqualTo(200);
        assertThat(settings.poolSize()).isEqualTo(4);
        assertThat(settings.toString()).doesNotContain("s3cret").contains("password=***");
    }

    @Test
    void badSettingsNameTheSettingAndTheFix() {
        assertThatThrownBy(() -> PostgresSettings.from(connection(Map.of("url", "postgres://db/app", "username", "u"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("setting 'url' must be a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> PostgresSettings.from(
                        connection(Map.of("url", "jdbc:postgresql://db/app", "username", "u", "batch-size", "0"))))
                .hasMessage("setting 'batch-size' must be >= 1, got 0");
        assertThatThrownBy(() -> PostgresSettings.from(connection(Map.of("url", "jdbc:postgresql://db/app"))))
                .hasMessageContaining("configure erasure.connections.pg-main.settings.username");
    }

    @Test
    void theSpecKnowsEveryHierarchySettingAndRefusesAMisspeltOne() {
        PostgresSettings.SPEC.check(connection(Map.of(
                "url", "jdbc:postgresql://db/app",
                "username", "u",
                "hierarchy.orders.tree.parent-column", "parent_id",
                "hierarchy.orders.child.items.table", "order_items")));

        assertThatThrownBy(() -> PostgresSettings.SPEC.check(
                        connection(Map.of("url", "jdbc:postgresql://db/app", "statement-timeout", "5000"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'statement-timeout' (did you mean 'statement-timeout-ms'?)")
                .hasMessageContaining("and any name under hierarchy.*");
    }

    private static StoreConnection connection(Map<String, String> settings) {
        return new StoreConnection("pg-main", StoreKind.POSTGRES, settings);
    }
}
