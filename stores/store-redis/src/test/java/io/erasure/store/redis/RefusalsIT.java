package io.erasure.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Datasets the adapter refuses before any key is touched, with the reason and the fix. */
class RefusalsIT {

    private static final int DATABASE = 4;
    private static StoreAdapter guarded;

    @BeforeAll
    static void open() {
        guarded = TestRedis.open(DATABASE, Map.of("key-prefixes", "profile:, session:"));
    }

    @AfterAll
    static void close() {
        guarded.close();
    }

    @Test
    void aTemplateOutsideTheAllowedKeyPrefixesIsRefusedNamingIt() {
        guarded.checkDataset(TestRedis.spec("profiles", "profile:{customer_id}", "customer_id"));
        guarded.checkDataset(TestRedis.spec("sessions", "session:v2:{customer_id}", "customer_id"));
        TestRedis.redis(DATABASE).set("billing:7", "invoice");
        DatasetSpec outside = TestRedis.spec("billing", "billing:{customer_id}", "customer_id");
        DatasetSpec placeholderFirst = TestRedis.spec("any", "{customer_id}:profile:", "customer_id");

        assertThatThrownBy(() -> guarded.checkDataset(outside))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("key template 'billing:{customer_id}'")
                .hasMessageContaining("[profile:, session:]")
                .hasMessageContaining("erasure.connections.redis-test.settings.key-prefixes");
        assertThatThrownBy(() -> guarded.checkDataset(placeholderFirst))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'{customer_id}:profile:'");
        // a spec never checked is checked on first use, so the guard cannot be bypassed
        assertThatThrownBy(() -> guarded.planDelete(
                        new DeleteBatch(outside, "b-1", TestRedis.CUTOFF, List.of(Map.of("customer_id", 7)))))
                .isInstanceOf(StoreException.Fatal.class);
        assertThat(TestRedis.redis(DATABASE).get("billing:7")).isEqualTo("invoice");
    }

    @Test
    void aPrefixTemplateIsRefused() {
        DatasetSpec prefix = TestRedis.spec("exports", "profile:{customer_id}/", "customer_id");

        assertThatThrownBy(() -> guarded.checkDataset(prefix))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'profile:{customer_id}/', a prefix")
                .hasMessageContaining("never by prefix or pattern");
    }

    @Test
    void aTemplateMustUseExactlyTheKeyColumns() {
        DatasetSpec partial = TestRedis.spec("profiles", "profile:{customer_id}", "customer_id", "region");

        assertThatThrownBy(() -> guarded.checkDataset(partial))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("placeholders [customer_id] but key columns [customer_id, region]");
    }

    @Test
    void aDatasetOfAnotherStoreIsRefused() {
        DatasetSpec postgres = TestRedis.spec("profiles", "profile:{customer_id}", "customer_id").toBuilder()
                .storeKind(StoreKind.POSTGRES)
                .target(null)
                .build();

        assertThatThrownBy(() -> guarded.checkDataset(postgres))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("is a POSTGRES dataset");
    }

    @Test
    void keysThatRenderToOneRedisKeyAreRefused() {
        DatasetSpec joined = TestRedis.spec("joined", "profile:{a}{b}", "a", "b");
        guarded.checkDataset(joined);

        assertThatThrownBy(() -> guarded.checkLiveState(
                        joined, List.of(Map.of("a", "1", "b", "23"), Map.of("a", "12", "b", "3"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("both render to Redis key 'profile:123'");
    }
}
