package io.erasure.support.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.EngineFolder;
import io.erasure.infra.process.FreePorts;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cassandra.autoconfigure.CassandraAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A service whose Cassandra node is down when it starts (the chaos trials crash the node and kill a service at once)
 * comes up once the node is back, instead of exiting on the first failed connection.
 */
class CassandraStartupIT {

    @Test
    void aServiceStartedBeforeItsNodeWaitsAndThenUsesIt() throws Exception {
        int port = FreePorts.next();
        // the node starts a few seconds after the service began to connect
        CompletableFuture<CassandraEngine> node = CompletableFuture.supplyAsync(() -> {
            sleep(3_000);
            return new CassandraEngine(
                    port, FreePorts.next(), FreePorts.next(), EngineFolder.temporary("cassandra-late"));
        });
        try {
            runner(port)
                    .withConfiguration(AutoConfigurations.of(CassandraStartupAutoConfiguration.class))
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        CqlSession session = context.getBean(CqlSession.class);
                        assertThat(session.execute("SELECT release_version FROM system.local")
                                        .one()
                                        .getString(0))
                                .startsWith("5.");
                    });
        } finally {
            node.get(3, TimeUnit.MINUTES).close();
        }
    }

    @Test
    void withoutItAServiceStartedBeforeItsNodeFails() {
        // the session is lazy: the services open it as they start (the log's schema, the key store)
        runner(FreePorts.next())
                .run(context -> assertThatThrownBy(() -> context.getBean(CqlSession.class))
                        .hasRootCauseInstanceOf(AllNodesFailedException.class));
    }

    private static ApplicationContextRunner runner(int port) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CassandraAutoConfiguration.class))
                .withPropertyValues(
                        "spring.cassandra.contact-points=127.0.0.1:" + port,
                        "spring.cassandra.local-datacenter=" + CassandraEngine.LOCAL_DATACENTER);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
