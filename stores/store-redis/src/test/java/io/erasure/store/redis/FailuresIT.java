package io.erasure.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.protocol.CommandType;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which failures are worth a retry: credentials and permissions are not, an unreachable server is. */
class FailuresIT {

    private static final int DATABASE = 5;
    private static final DatasetSpec SPEC = TestRedis.spec("profiles", "profile:{customer_id}", "customer_id");

    @BeforeAll
    static void users() {
        var redis = TestRedis.redis(DATABASE);
        redis.aclSetuser(
                "erasure_ops",
                new AclSetuserArgs()
                        .reset()
                        .on()
                        .addPassword("right-password")
                        .allKeys()
                        .allCommands());
        redis.aclSetuser(
                "erasure_no_unlink",
                new AclSetuserArgs()
                        .reset()
                        .on()
                        .addPassword("pw")
                        .allKeys()
                        .allCommands()
                        .removeCommand(CommandType.UNLINK));
    }

    @AfterAll
    static void dropUsers() {
        TestRedis.redis(DATABASE).aclDeluser("erasure_ops", "erasure_no_unlink");
    }

    @Test
    void aWrongPasswordIsFatal() {
        StoreConnection wrong =
                TestRedis.connection(DATABASE, Map.of("username", "erasure_ops", "password", "wrong-password"));

        assertThatThrownBy(() -> StoreAdapters.load().open(wrong))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("WRONGPASS")
                .hasMessageContaining("check the connection's username and password")
                .hasMessageNotContaining("wrong-password");

        try (StoreAdapter right =
                TestRedis.open(DATABASE, Map.of("username", "erasure_ops", "password", "right-password"))) {
            right.checkDataset(SPEC);
        }
    }

    @Test
    void aCommandTheUserMayNotRunIsFatal() {
        TestRedis.redis(DATABASE).set("profile:1", "x");
        try (StoreAdapter limited =
                TestRedis.open(DATABASE, Map.of("username", "erasure_no_unlink", "password", "pw"))) {
            DeletePlan plan = limited.planDelete(
                    new DeleteBatch(SPEC, "b-1", TestRedis.CUTOFF, List.of(Map.of("customer_id", 1))));

            assertThatThrownBy(() -> limited.executeDelete(plan))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("NOPERM")
                    .hasMessageContaining("grant the connection's ACL user");
        }
        assertThat(TestRedis.redis(DATABASE).get("profile:1")).isEqualTo("x");
    }

    @Test
    void anUnreachableServerIsRetriable() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        StoreConnection nowhere = new StoreConnection(
                "redis-nowhere",
                StoreKind.REDIS,
                Map.of("host", "127.0.0.1", "port", Integer.toString(port), "timeout-ms", "1000"));

        assertThatThrownBy(() -> StoreAdapters.load().open(nowhere))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("redis-nowhere")
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void incompleteSettingsAreFatalAndNameTheSetting() {
        StoreConnection noHost = new StoreConnection("redis-empty", StoreKind.REDIS, Map.of());

        assertThatThrownBy(() -> StoreAdapters.load().open(noHost))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("erasure.connections.redis-empty.settings.host");
    }
}
