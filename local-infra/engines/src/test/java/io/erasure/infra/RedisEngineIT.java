package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;

@ExtendWith(LocalEnginesExtension.class)
class RedisEngineIT {

    @Test
    void setGetWithATimeToLive(RedisEngine redis) throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.set("profile:42", "{\"name\":\"ada\"}", SetParams.setParams().px(1500));
            jedis.set("profile:43", "kept");

            assertThat(jedis.get("profile:42")).isEqualTo("{\"name\":\"ada\"}");
            assertThat(jedis.pttl("profile:42")).isBetween(1L, 1500L);
            assertThat(jedis.ttl("profile:43")).isEqualTo(-1L);

            // a Jedis connection is for one thread at a time: the condition is polled in this one
            await("profile:42 to expire")
                    .atMost(Duration.ofSeconds(10))
                    .pollInSameThread()
                    .until(() -> !jedis.exists("profile:42"));
            assertThat(jedis.get("profile:43")).isEqualTo("kept");
            assertThat(jedis.info("server")).contains("redis_version:");
        }
    }
}
