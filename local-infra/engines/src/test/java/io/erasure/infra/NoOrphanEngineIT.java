package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A test JVM killed with SIGKILL leaves no engine process behind. */
class NoOrphanEngineIT {

    @Test
    void enginesOfAKilledJvmStopOnTheirOwn() throws Exception {
        Process parent = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        EngineStartingProbe.class.getName()))
                .redirectErrorStream(true)
                .start();
        long enginePid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream()))) {
            String line;
            String pidLine = null;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("ENGINE-PID ")) {
                    pidLine = line;
                    break;
                }
            }
            assertThat(pidLine).as("the probe JVM started an engine").isNotNull();
            enginePid = Long.parseLong(pidLine.substring("ENGINE-PID ".length()).trim());
        }
        ProcessHandle engine = ProcessHandle.of(enginePid).orElseThrow();
        List<ProcessHandle> engineChildren = engine.descendants().toList();
        assertThat(engineChildren).as("redis-server runs under the engine host").isNotEmpty();

        parent.destroyForcibly(); // SIGKILL: no shutdown hook of the probe runs
        parent.waitFor(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(45))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    assertThat(engine.isAlive())
                            .as("engine host JVM outlived its killed parent")
                            .isFalse();
                    assertThat(engineChildren).noneMatch(ProcessHandle::isAlive);
                });
    }

    /** Run in its own JVM: starts a Redis engine, prints its host pid and waits to be killed. */
    public static final class EngineStartingProbe {
        public static void main(String[] args) throws Exception {
            RedisEngine redis = LocalEngines.redis();
            System.out.println("ENGINE-PID " + redis.pid());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE); // not a wait for anything: the probe idles until the test SIGKILLs it
        }
    }
}
