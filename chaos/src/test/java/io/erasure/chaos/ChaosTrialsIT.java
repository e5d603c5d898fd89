package io.erasure.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short version of the chaos trials, run by {@code verify}: a few trials on a fresh platform, each with a real
 * fault of another kind (a service killed with SIGKILL, the broker and the Cassandra node killed, the target store
 * stalled, S3 away), from a fixed seed so a failure replays. The long version is {@code chaos/trials} (see README).
 */
class ChaosTrialsIT {

    private static final long SEED = 20_261_202L;

    @Test
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    void everyInvariantHoldsThroughRealFaults() throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        Path root = Files.createTempDirectory("erasure-chaos-it");
        ChaosMain.Settings settings = new ChaosMain.Settings(
                5,
                SEED,
                null,
                List.of(
                        Fault.KILL_DELETION,
                        Fault.S3_OUTAGE,
                        Fault.KAFKA_CRASH,
                        Fault.CASSANDRA_CRASH,
                        Fault.STALLED_STORE));
        List<Trial.Result> results;
        try {
            results = ChaosMain.run(project, root, settings, System.out);
        } finally {
            ChaosMain.deleteTree(root);
        }
        String table = TrialTable.render(results);
        System.out.println(table);

        assertThat(results).hasSize(5);
        assertThat(results)
                .allSatisfy(result -> assertThat(result.hitIn())
                        .as("trial %d was hit", result.plan().trial())
                        .isNotEqualTo("never"));
        assertThat(results.stream().mapToLong(Trial.Result::deleted).sum())
                .as("the runs deleted rows")
                .isPositive();
        assertThat(results.stream().flatMap(r -> r.violations().stream()).toList())
                .as(table)
                .isEmpty();
    }
}
