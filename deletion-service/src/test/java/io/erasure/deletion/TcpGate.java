package io.erasure.deletion;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder to a real engine that a test can close and reopen on the same port: a store outage
 * without stopping the engine other tests share.
 */
final class TcpGate implements AutoCloseable {

    private final int port;
    private final int targetPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    TcpGate(int port, int targetPort) {
        this.port = port;
        this.targetPort = targetPort;
    }

    int port() {
        return port;
    }

    synchronized void open() throws IOException {
        if (server != null) {
            return;
        }
        ServerSocket listening = new ServerSocket();
        listening.setReuseAddress(true);
        listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = listening;
        Thread acceptor = new Thread(
                () -> {
                    while (!listening.isClosed()) {
                        try {
                            Socket client = listening.accept();
                            Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                            open.add(client);
                            open.add(target);
                            pump(client, target);
                            pump(target, client);
                        } catch (IOException closed) {
                            return;
                        }
                    }
                },
                "tcp-gate-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Refuses new connections and cuts the open ones, like a store going down. */
    synchronized void cut() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
        for (Socket socket : open) {
            socket.close();
        }
        open.clear();
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private static void pump(Socket from, Socket to) {
        Thread pump = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException ignored) {
                        // either side closed
                    } finally {
                        try {
                            from.close();
                            to.close();
                        } catch (IOException ignored) {
                            // already closed
                        }
                    }
                },
                "tcp-gate-pump");
        pump.setDaemon(true);
        pump.start();
    }
}
