package io.erasure.store.spi;

import static io.erasure.store.spi.StoreCapabilities.Capability.CUTOFF_CONDITIONED;
import static io.erasure.store.spi.StoreCapabilities.Capability.RESTORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StoreCapabilitiesTest {

    @Test
    void aStoreSupportsWhatItNamesAndNothingElse() {
        StoreCapabilities capabilities = StoreCapabilities.of(500, RESTORE, CUTOFF_CONDITIONED);

        assertThat(capabilities.maxBatch()).isEqualTo(500);
        assertThat(capabilities.restore()).isTrue();
        assertThat(capabilities.cutoffConditioned()).isTrue();
        assertThat(capabilities.partitionDelete()).isFalse();
        assertThat(capabilities.rowTimestamps()).isFalse();
        assertThat(capabilities.cellTtl()).isFalse();
        assertThat(capabilities.clearColumns()).isFalse();
        assertThat(StoreCapabilities.of(1).supported()).isEmpty();
    }

    @Test
    void aBatchOfNoKeysIsRefused() {
        assertThatThrownBy(() -> StoreCapabilities.of(0, RESTORE)).hasMessage("maxBatch must be >= 1, got 0");
    }
}
