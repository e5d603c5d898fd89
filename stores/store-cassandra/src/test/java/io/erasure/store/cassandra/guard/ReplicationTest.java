package io.erasure.store.cassandra.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplicationTest {

    @Test
    void simpleStrategyReplicatesOnEveryNodeWithItsFactor() {
        Replication replication = Replication.of(
                Map.of("class", "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", "3"));

        assertThat(replication.factor()).isEqualTo(3);
        assertThat(replication.holdsReplicasIn("any-dc")).isTrue();
    }

    @Test
    void networkTopologyStrategyAddsUpItsDataCentersAndHoldsReplicasOnlyInThem() {
        Replication replication = Replication.of(Map.of(
                "class", "org.apache.cassandra.locator.NetworkTopologyStrategy", "dc1", "3", "dc2", "2", "dc3", "0"));

        assertThat(replication.factor()).isEqualTo(5);
        assertThat(replication.holdsReplicasIn("dc1")).isTrue();
        assertThat(replication.holdsReplicasIn("dc3")).isFalse();
        assertThat(replication.holdsReplicasIn("dc4")).isFalse();
    }

    @Test
    void transientReplicasAreNotCountedAsFullReplicas() {
        assertThat(Replication.of(Map.of("class", "NetworkTopologyStrategy", "dc1", "3/1"))
                        .factor())
                .isEqualTo(2);
    }

    @Test
    void anUnknownStrategyWithoutFactorsIsTakenAsReplicatingEverywhere() {
        Replication replication = Replication.of(Map.of("class", "com.example.EverywhereStrategy"));

        assertThat(replication.factor()).isGreaterThan(1);
        assertThat(replication.holdsReplicasIn("dc9")).isTrue();
    }
}
