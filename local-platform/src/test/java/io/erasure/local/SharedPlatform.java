package io.erasure.local;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.infra.CassandraEngine;
import io.erasure.local.demo.DemoCycle;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole platform with its demo, started once per test JVM and shared by the platform ITs (one
 * start costs minutes on 2 cores); stopped when the JVM exits.
 */
final class SharedPlatform {

    private static SharedPlatform instance;

    final LocalPlatform.Running platform;
    final DemoCycle demo;
    final DemoCycle.Result demoResult;

    private SharedPlatform(LocalPlatform.Running platform, DemoCycle demo, DemoCycle.Result demoResult) {
        this.platform = platform;
        this.demo = demo;
        this.demoResult = demoResult;
    }

    static synchronized SharedPlatform get() throws Exception {
        if (instance == null) {
            Path project = Path.of("").toAbsolutePath().getParent();
            LocalPlatform.Running platform =
                    LocalPlatform.start(project, Files.createTempDirectory("erasure-platform-it"));
            Runtime.getRuntime().addShutdownHook(new Thread(platform::close, "platform-it-stop"));
            DemoCycle demo = platform.demo(System.out);
            instance = new SharedPlatform(platform, demo, demo.run());
        }
        return instance;
    }

    /** True if the demo's Cassandra table holds the member's profile. */
    boolean profileExists(long memberId) {
        return profile(memberId) != null;
    }

    /** The member's profile row (column → value, nulls included), or null when there is none. */
    Map<String, Object> profile(long memberId) {
        CassandraEngine cassandra = platform.engine(CassandraEngine.class);
        String[] hostPort = cassandra.contactPoint().split(":");
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                .withLocalDatacenter(CassandraEngine.LOCAL_DATACENTER)
                .build()) {
            var row = session.execute(
                            "SELECT display_name, email, country FROM demo.member_profiles WHERE member_id = ?",
                            memberId)
                    .one();
            if (row == null) {
                return null;
            }
            Map<String, Object> columns = new HashMap<>();
            for (String column : List.of("display_name", "email", "country")) {
                columns.put(column, row.getString(column));
            }
            return columns;
        }
    }
}
