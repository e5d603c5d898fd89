package io.erasure.infra.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports for engines started by tests, chosen below the kernel's ephemeral range.
 *
 * <p>A port is chosen here and bound later by the engine's process. A port of the ephemeral range (what
 * {@code new ServerSocket(0)} hands out) can be taken in between by any outgoing connection on the machine, the test
 * JVM's own among them: Cassandra then could not bind its storage port ("in use by another process"), or a client
 * found another engine where it expected its own. Outgoing connections never take a port below the range, so a port
 * checked free there stays free; within this JVM no port is handed out twice.
 */
public final class FreePorts {

    /**
     * The lowest port handed out: above the fixed ports of the local platform's engines and services ({@code
     * LocalInfraMain}, 15432..19093, and 8080..) and of well-known services.
     */
    static final int LOWEST = 20_000;
    /** The kernel's range of ports for outgoing connections, where it cannot be read. */
    private static final int[] DEFAULT_EPHEMERAL = {32_768, 60_999};

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int ATTEMPTS = 500;

    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {}

    public static synchronized int next() {
        int highest = ephemeralRange()[0] - 1;
        if (highest - LOWEST < 1_000) {
            throw new IllegalStateException("the ephemeral port range starts at " + (highest + 1) + ", leaving too few"
                    + " ports between " + LOWEST + " and it for test engines; raise the start of "
                    + EPHEMERAL_RANGE + " (e.g. sysctl net.ipv4.ip_local_port_range=\"32768 60999\")");
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
            if (!HANDED_OUT.contains(port) && free(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IllegalStateException(
                "no free TCP port between " + LOWEST + " and " + highest + " after " + ATTEMPTS + " tries");
    }

    /** The first and last port the kernel gives outgoing connections. */
    static int[] ephemeralRange() {
        try {
            String[] bounds = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
            return new int[] {Integer.parseInt(bounds[0]), Integer.parseInt(bounds[1])};
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL.clone();
        }
    }

    /** Whether nothing listens on the port, on any address (an engine binds the loopback or every address). */
    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
