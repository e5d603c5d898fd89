package io.erasure.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The gate relays bytes both ways, and while stalled holds them (the connection stays open), then lets them through.
 */
class TcpGateTest {

    @Test
    void bytesFlowThenWaitWhileStalledThenFlowAgainInOrder() throws Exception {
        try (ServerSocket store = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
                TcpGate gate = new TcpGate(new InetSocketAddress("127.0.0.1", store.getLocalPort()));
                Socket client = new Socket("127.0.0.1", gate.port());
                Socket served = store.accept()) {
            served.setSoTimeout(500);
            InputStream atStore = served.getInputStream();
            client.getOutputStream().write(1);
            assertThat(atStore.read()).isEqualTo(1);

            gate.stall(Duration.ofSeconds(3));
            client.getOutputStream().write(2);
            client.getOutputStream().write(3);
            assertThatThrownBy(atStore::read).as("held while stalled").isInstanceOf(SocketTimeoutException.class);

            served.setSoTimeout(5_000);
            assertThat(atStore.read()).as("then delivered, in order").isEqualTo(2);
            assertThat(atStore.read()).isEqualTo(3);
            served.getOutputStream().write(4);
            client.setSoTimeout(5_000);
            assertThat(client.getInputStream().read()).as("and the other way").isEqualTo(4);
        }
    }
}
