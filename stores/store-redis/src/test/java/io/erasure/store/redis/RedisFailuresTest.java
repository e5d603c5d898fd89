package io.erasure.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.spi.StoreException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import java.net.ConnectException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class RedisFailuresTest {

    @Test
    void credentialsPermissionsAndUnknownCommandsAreFatalWithTheFix() {
        assertThat(translate(reply("WRONGPASS invalid username-password pair or user is disabled.")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("check the connection's username and password");
        assertThat(translate(reply("NOAUTH Authentication required."))).isInstanceOf(StoreException.Fatal.class);
        assertThat(translate(reply("NOPERM this user has no permissions to run the 'unlink' command")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("grant the connection's ACL user");
        assertThat(translate(reply("ERR unknown command `UNLINK`, with args beginning with: ")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("UNLINK needs Redis 4.0+");
        assertThat(translate(reply("CROSSSLOT Keys in request don't hash to the same slot")))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("Redis Cluster");
    }

    @Test
    void aServerThatIsBusyOrChangingIsRetriable() {
        for (String reply : new String[] {
            "LOADING Redis is loading the dataset in memory",
            "BUSY Redis is busy running a script",
            "READONLY You can't write against a read only replica.",
            "MASTERDOWN Link with MASTER is down",
            "OOM command not allowed when used memory > 'maxmemory'."
        }) {
            assertThat(translate(reply(reply))).as(reply).isInstanceOf(StoreException.Retriable.class);
        }
    }

    @Test
    void noReplyIsRetriableAndAnAuthenticationReplyInsideAConnectFailureIsNot() {
        assertThat(translate(new RedisCommandTimeoutException("Command timed out after 5 second(s)")))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("timed out");
        assertThat(translate(new ExecutionException(new RedisConnectionException(
                        "Unable to connect to 127.0.0.1:1", new ConnectException("Connection refused")))))
                .isInstanceOf(StoreException.Retriable.class)
                .hasMessageContaining("Connection refused");
        assertThat(translate(new RedisConnectionException("Unable to connect", reply("WRONGPASS invalid password"))))
                .isInstanceOf(StoreException.Fatal.class);
    }

    private static StoreException translate(Throwable error) {
        return RedisFailures.translate("delete keys", error);
    }

    private static RedisCommandExecutionException reply(String message) {
        return new RedisCommandExecutionException(message);
    }
}
