package io.erasure.infra;

import java.util.Map;

/**
 * A real engine running on this machine, started by {@link LocalEngines}.
 *
 * <p>Lifecycle: {@code start → (use)* → close}. Engines started through {@link LocalEngines} are shared
 * by every test of a JVM and stopped when it exits; a child process also stops on its own when its
 * parent dies (see {@code OrphanGuard}), so nothing outlives a killed test JVM.
 */
public interface Engine extends AutoCloseable {

    /** Engine name for logs and errors, e.g. {@code cassandra}. */
    String name();

    /**
     * The Spring Boot properties a service needs to reach this engine, e.g.
     * {@code spring.kafka.bootstrap-servers}. The same names (upper-cased, dots and dashes as
     * underscores) are the environment variables read in {@code docker-compose.yml}.
     */
    Map<String, String> springProperties();

    /**
     * The properties that register this engine as a store connection named {@code ref} in a service
     * that reaches stores through adapters ({@code erasure.connections.<ref>.kind} and {@code .settings}).
     * Engines that are not target stores return an empty map.
     */
    default Map<String, String> storeConnectionProperties(String ref) {
        return Map.of();
    }

    /** Stops the engine and waits for it; idempotent. */
    @Override
    void close();
}
