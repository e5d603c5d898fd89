package io.erasure.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SettingsSpecTest {

    private static final SettingsSpec SPEC =
            SettingsSpec.of("contact-points", "consistency", "jmx-port").withPrefixes("hierarchy.");

    @Test
    void knownNamesAndNamesUnderAPrefixPass() {
        assertThatCode(() -> SPEC.check(connection(Map.of(
                        "contact-points", "a:9042",
                        "consistency", "ALL",
                        "hierarchy.orders.tree.parent-column", "parent_id"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> SPEC.check(connection(Map.of()))).doesNotThrowAnyException();
    }

    @Test
    void aMisspeltSettingIsRefusedWithTheClosestNameWhereToFixItAndEveryKnownName() {
        assertThatThrownBy(() -> SPEC.check(connection(Map.of("contact-points", "a:9042", "consistancy", "ALL"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("connection 'main' has a setting the CASSANDRA adapter does not know:"
                        + " 'consistancy' (did you mean 'consistency'?)")
                .hasMessageContaining("erasure.connections.main.settings.*")
                .hasMessageContaining(
                        "the known settings are consistency, contact-points, jmx-port, and any name under hierarchy.*");
    }

    @Test
    void everyUnknownSettingIsNamedAndOnlyNearOnesGetASuggestion() {
        assertThatThrownBy(() -> SPEC.check(connection(Map.of("jmx_port", "7199", "replication-factor", "3"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("has settings the CASSANDRA adapter does not know: 'jmx_port' (did you mean"
                        + " 'jmx-port'?), 'replication-factor'. Correct or remove them");
    }

    @Test
    void aPrefixAloneOrAnUnlistedFamilyIsNotKnown() {
        assertThat(SPEC.knows("hierarchy.")).isFalse();
        assertThat(SPEC.knows("hierarchy")).isFalse();
        assertThat(SPEC.knows("load.cpu")).isFalse();
        assertThat(SPEC.knows("hierarchy.orders.child.items.table")).isTrue();
    }

    @Test
    void aPrefixMustEndWithADot() {
        assertThatThrownBy(() -> SettingsSpec.of("a").withPrefixes("hierarchy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends with '.'");
    }

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertThat(SettingsSpec.distance("consistency", "consistency")).isZero();
        assertThat(SettingsSpec.distance("consistancy", "consistency")).isEqualTo(1);
        assertThat(SettingsSpec.distance("jmxport", "jmx-port")).isEqualTo(1);
        assertThat(SettingsSpec.distance("", "abc")).isEqualTo(3);
        assertThat(SettingsSpec.distance("kitten", "sitting")).isEqualTo(3);
    }

    @Test
    void storeAdaptersRefuseAnUnknownSettingBeforeTheProviderOpensAnything() {
        AtomicInteger opened = new AtomicInteger();
        StoreAdapterProvider provider = new StoreAdapterProvider() {
            @Override
            public String type() {
                return "CASSANDRA";
            }

            @Override
            public SettingsSpec settings() {
                return SPEC;
            }

            @Override
            public StoreAdapter open(StoreConnection connection) {
                opened.incrementAndGet();
                throw new StoreException.Fatal("opened");
            }
        };
        StoreAdapters adapters = new StoreAdapters(Map.of("CASSANDRA", provider));

        assertThatThrownBy(() -> adapters.open(connection(Map.of("contact-point", "a:9042"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'contact-point' (did you mean 'contact-points'?)");
        assertThat(opened).hasValue(0);

        assertThatThrownBy(() -> adapters.open(connection(Map.of("contact-points", "a:9042"))))
                .hasMessage("opened");
        assertThat(opened).hasValue(1);
    }

    private static StoreConnection connection(Map<String, String> settings) {
        return new StoreConnection("main", StoreKind.CASSANDRA, settings);
    }
}
