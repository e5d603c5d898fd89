package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.run.RunId;
import io.erasure.validation.check.ReadThrottle;
import io.erasure.validation.resurrection.DeletionLogConnection;
import io.erasure.validation.resurrection.ResurrectionDetector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Without erasure.validation.deletion-log.* detection is off and says so; half a configuration is refused. */
class ResurrectionWiringTest {

    @Test
    void noContactPointsMeansNotConfiguredNeverNothingFound() throws Exception {
        try (ResurrectionDetector detector = new ValidationConfiguration()
                .resurrectionDetector(
                        new DeletionLogConnection(null, null, null, null, null),
                        new ReadThrottle(10),
                        new SimpleMeterRegistry())) {
            assertThat(detector.configured()).isFalse();
            assertThat(detector.status()).isEqualTo("not configured");
            assertThat(detector.detect(RunId.of("run-1"), null, List.of())).isEmpty();
        }
        assertThat(new DeletionLogConnection(List.of(" ", ""), null, null, null, null).configured())
                .isFalse();
    }

    @Test
    void contactPointsAreReadLikeSpringCassandras() {
        DeletionLogConnection connection =
                new DeletionLogConnection(List.of("cassandra-1:9142", " cassandra-2 "), "dc1", null, null, null);

        assertThat(connection.configured()).isTrue();
        assertThat(connection.endpoints()).containsExactly("cassandra-1:9142", "cassandra-2:9042");
        assertThat(connection.keyspace()).isEqualTo("deletion_log");
    }

    @Test
    void anIncompleteOrWrongConfigurationNamesThePropertyAndTheFix() {
        assertThatThrownBy(() -> new DeletionLogConnection(List.of("cassandra-1:9042"), null, null, null, null))
                .hasMessageContaining("erasure.validation.deletion-log.local-datacenter is required");
        assertThatThrownBy(() -> new DeletionLogConnection(List.of("cassandra-1:x"), "dc1", null, null, null))
                .hasMessageContaining("erasure.validation.deletion-log.contact-points must list host:port");
        assertThatThrownBy(() -> new DeletionLogConnection(List.of("cassandra-1"), "dc1", "deletion-log", null, null))
                .hasMessageContaining("erasure.validation.deletion-log.keyspace");
        assertThatThrownBy(() -> new DeletionLogConnection(List.of("cassandra-1"), "dc1", null, "user", null))
                .hasMessageContaining("set both or neither");
        assertThat(new DeletionLogConnection(null, null, null, "u", "secret").toString())
                .doesNotContain("secret");
    }
}
