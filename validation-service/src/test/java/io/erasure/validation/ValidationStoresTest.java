package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreAdapters;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A dataset of any store kind can be registered, so validation must reach every kind to re-check its candidates
 * against live data: a kind without its adapter here would fail every run of such a dataset at validation.
 */
class ValidationStoresTest {

    @Test
    void validationReadsLiveStateInEveryKindOfStore() {
        StoreAdapters adapters = StoreAdapters.load();

        assertThat(Arrays.stream(StoreKind.values()))
                .allSatisfy(kind ->
                        assertThat(adapters.provider(kind)).as(kind.name()).isNotNull());
    }
}
