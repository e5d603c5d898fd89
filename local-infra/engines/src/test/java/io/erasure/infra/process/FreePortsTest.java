package io.erasure.infra.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsAreBelowTheEphemeralRangeDistinctAndFreeToBind() throws IOException {
        int ephemeralStart = FreePorts.ephemeralRange()[0];
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ports.add(FreePorts.next());
        }

        assertThat(ports)
                .as("outside the range outgoing connections take ports from")
                .allSatisfy(port -> assertThat(port).isBetween(FreePorts.LOWEST, ephemeralStart - 1));
        assertThat(ports).doesNotHaveDuplicates();
        for (int port : ports.subList(0, 20)) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void aPortSomethingListensOnIsNotHandedOut() throws IOException {
        int ephemeralStart = FreePorts.ephemeralRange()[0];
        List<ServerSocket> taken = new ArrayList<>();
        try {
            // most of a small slice of the range is taken on the loopback; none of it may come back
            for (int port = FreePorts.LOWEST; port < FreePorts.LOWEST + 50; port++) {
                ServerSocket socket = new ServerSocket();
                try {
                    socket.bind(new InetSocketAddress("127.0.0.1", port));
                    taken.add(socket);
                } catch (IOException e) {
                    socket.close();
                }
            }
            List<Integer> takenPorts =
                    taken.stream().map(ServerSocket::getLocalPort).toList();
            for (int i = 0; i < 2_000; i++) {
                int port = FreePorts.next();
                assertThat(takenPorts).doesNotContain(port);
                assertThat(port).isLessThan(ephemeralStart);
            }
        } finally {
            for (ServerSocket socket : taken) {
                socket.close();
            }
        }
    }
}
