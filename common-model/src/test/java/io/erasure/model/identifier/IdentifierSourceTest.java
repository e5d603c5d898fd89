package io.erasure.model.identifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.Fixtures;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.StoreKind;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class IdentifierSourceTest {

    @Test
    void identifierIsDeletableOnlyAfterTheGracePeriod() {
        IdentifierSource source = Fixtures.customers();
        Instant since = Instant.parse("2024-01-01T00:00:00Z");
        assertThat(source.deletableAt(since, since.plus(Duration.ofDays(3)).minusSeconds(1)))
                .isFalse();
        assertThat(source.deletableAt(since, since.plus(Duration.ofDays(3)))).isTrue();
        assertThat(source.deletableAt(null, since.plus(Duration.ofDays(30)))).isFalse();
    }

    @Test
    void gracePeriodMustNotBeNegative() {
        assertThatThrownBy(() -> new IdentifierSource(
                        "customers",
                        StoreKind.POSTGRES,
                        "pg-main",
                        "public",
                        "customers",
                        "customer_id",
                        "deleted_at",
                        S3Layout.defaultBackupLocation("customers", BackupFormat.CSV),
                        Duration.ofHours(-1)))
                .hasMessageStartingWith("identifierSource.gracePeriod must be >= 0");
    }

    @Test
    void columnsMustBeSafeIdentifiers() {
        assertThatThrownBy(() -> new IdentifierSource(
                        "customers",
                        StoreKind.POSTGRES,
                        "pg-main",
                        "public",
                        "customers",
                        "customer_id",
                        "deleted at",
                        S3Layout.defaultBackupLocation("customers", BackupFormat.CSV),
                        Duration.ZERO))
                .hasMessageStartingWith("identifierSource.deletableSinceColumn must be a lower-case identifier");
    }

    @Test
    void roundTripsThroughJson() {
        IdentifierSource source = Fixtures.customers();
        String json = Fixtures.JSON.writeValueAsString(source);
        assertThat(Fixtures.JSON.readValue(json, IdentifierSource.class)).isEqualTo(source);
    }
}
