package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.EngineFolder;
import io.erasure.infra.process.FreePorts;
import io.erasure.validation.resurrection.DeletionLogConnection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Validation's own session to the deletion log (resurrection detection) is opened as the service starts: a node
 * down at that moment (a crash, a restart beside the service's) is waited for, as Boot's session is.
 */
class DeletionLogSessionStartIT {

    @Test
    void aNodeThatComesUpAfterTheServiceStartedIsWaitedFor() throws Exception {
        int port = FreePorts.next();
        CompletableFuture<CassandraEngine> node = CompletableFuture.supplyAsync(() -> {
            try {
                // a sleep, not a wait for a condition: the node comes up late on purpose, after the session is asked
                Thread.sleep(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return new CassandraEngine(port, FreePorts.next(), FreePorts.next(), EngineFolder.temporary("late-log"));
        });
        DeletionLogConnection connection = new DeletionLogConnection(
                List.of("127.0.0.1:" + port), CassandraEngine.LOCAL_DATACENTER, null, null, null);
        try (CqlSession session = ValidationConfiguration.deletionLogSession(connection)) {
            assertThat(session.execute("SELECT release_version FROM system.local")
                            .one()
                            .getString(0))
                    .startsWith("5.");
        } finally {
            node.get(3, TimeUnit.MINUTES).close();
        }
    }
}
