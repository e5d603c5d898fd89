package io.erasure.infra;

import io.erasure.infra.process.FreePorts;
import java.util.List;
import java.util.Map;

/** A real {@code redis-server} from the binaries shipped in {@code com.github.codemonstur:embedded-redis}. */
public final class RedisEngine extends HostedEngine {

    public RedisEngine(int port, EngineFolder folder) {
        super("redis", port, folder, List.of());
    }

    static RedisEngine startForTests() {
        return new RedisEngine(FreePorts.next(), EngineFolder.temporary("redis"));
    }

    @Override
    public Map<String, String> storeConnectionProperties(String ref) {
        String prefix = "erasure.connections[" + ref + "].";
        return Map.of(
                prefix + "kind", "REDIS",
                prefix + "settings[host]", host(),
                prefix + "settings[port]", Integer.toString(port()));
    }

    @Override
    public Map<String, String> springProperties() {
        return Map.of(
                "spring.data.redis.host", host(),
                "spring.data.redis.port", Integer.toString(port()));
    }
}
