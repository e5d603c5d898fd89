package io.erasure.infra.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Free TCP ports on the loopback interface, for engines started by tests. */
public final class FreePorts {

    private FreePorts() {
    }

    public static int next() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free TCP port", e);
        }
    }
}
