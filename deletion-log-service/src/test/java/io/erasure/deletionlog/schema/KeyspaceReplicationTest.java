package io.erasure.deletionlog.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.erasure.deletionlog.schema.KeyspaceReplication.Strategy;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

class KeyspaceReplicationTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(KeyspaceReplication.class)
    static class Binding {}

    private final ApplicationContextRunner contextRunner =
            new ApplicationContextRunner().withUserConfiguration(Binding.class);

    @Test
    void localDefaultIsOneSimpleReplica() {
        contextRunner.run(
                context -> assertThat(DeletionLogKeyspace.createStatement(context.getBean(KeyspaceReplication.class)))
                        .isEqualTo("CREATE KEYSPACE IF NOT EXISTS deletion_log WITH replication = "
                                + "{'class': 'SimpleStrategy', 'replication_factor': 1} AND durable_writes = true"));
    }

    @Test
    void productionNamesTheReplicasOfEachDatacenter() {
        contextRunner
                .withPropertyValues(
                        "erasure.deletion-log.replication.strategy=network-topology",
                        "erasure.deletion-log.replication.datacenters.eu-west=3",
                        "erasure.deletion-log.replication.datacenters.dc1=3")
                .run(context -> assertThat(
                                context.getBean(KeyspaceReplication.class).toCql())
                        .isEqualTo("{'class': 'NetworkTopologyStrategy', 'dc1': 3, 'eu-west': 3}"));
    }

    @Test
    void networkTopologyWithoutDatacentersIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new KeyspaceReplication(Strategy.NETWORK_TOPOLOGY, 1, Map.of()))
                .withMessageContaining("erasure.deletion-log.replication.datacenters is required");
    }

    @Test
    void aDatacenterNameCannotInjectCql() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new KeyspaceReplication(Strategy.NETWORK_TOPOLOGY, 1, Map.of("dc1': 1}; DROP", 3)))
                .withMessageContaining("is not a datacenter name");
    }

    @Test
    void atLeastOneReplica() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new KeyspaceReplication(Strategy.SIMPLE, 0, null))
                .withMessageContaining("must be at least 1");
    }
}
