package io.erasure.model.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StoreKindTest {

    @Test
    void parsesCaseInsensitivelyWithDashes() {
        assertThat(StoreKind.parse("cassandra")).isEqualTo(StoreKind.CASSANDRA);
        assertThat(StoreKind.parse(" s3-object ")).isEqualTo(StoreKind.S3_OBJECT);
        assertThat(StoreKind.parse("HTTP_CALLBACK")).isEqualTo(StoreKind.HTTP_CALLBACK);
    }

    @Test
    void unknownKindListsTheKnownOnes() {
        assertThatThrownBy(() -> StoreKind.parse("mongodb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("store kind 'mongodb' is unknown; use one of CASSANDRA, POSTGRES, REDIS, S3_OBJECT,"
                        + " HTTP_CALLBACK, OPENSEARCH");
        assertThatThrownBy(() -> StoreKind.parse(null)).hasMessageContaining("use one of CASSANDRA");
    }

    @Test
    void onlyCassandraAndPostgresAreTabular() {
        assertThat(StoreKind.CASSANDRA.tabular()).isTrue();
        assertThat(StoreKind.POSTGRES.tabular()).isTrue();
        assertThat(StoreKind.REDIS.tabular()).isFalse();
        assertThat(StoreKind.S3_OBJECT.tabular()).isFalse();
        assertThat(StoreKind.HTTP_CALLBACK.tabular()).isFalse();
    }
}
