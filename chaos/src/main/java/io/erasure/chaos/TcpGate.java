package io.erasure.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in front of one store: clients connect to {@link #port()}, every byte goes on to the store.
 * {@link #stall} holds every byte in both directions for a while, as a store that stops answering (a long GC pause, a
 * saturated disk, a network partition that heals) looks to its clients: connections stay open, requests time out or
 * wait.
 */
public final class TcpGate implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile long stalledUntilNanos = System.nanoTime();
    private volatile boolean closed;

    /** Listens on a free port of 127.0.0.1 and relays to {@code target}. */
    public TcpGate(InetSocketAddress target) {
        this.target = target;
        try {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("the gate cannot listen on 127.0.0.1", e);
        }
        Thread acceptor = new Thread(this::accept, "tcp-gate-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Holds every byte from now for {@code duration}; what was held flows again afterwards, in order. */
    public void stall(Duration duration) {
        stalledUntilNanos = System.nanoTime() + duration.toNanos();
    }

    boolean stalled() {
        return System.nanoTime() - stalledUntilNanos < 0;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket store = new Socket();
                try {
                    store.connect(target, 5_000);
                } catch (IOException unreachable) {
                    client.close();
                    store.close();
                    continue;
                }
                open.add(client);
                open.add(store);
                if (closed) {
                    closeQuietly(client);
                    closeQuietly(store);
                    return;
                }
                client.setTcpNoDelay(true);
                store.setTcpNoDelay(true);
                relay(client, store);
                relay(store, client);
            } catch (IOException e) {
                if (!closed) {
                    sleep(Duration.ofMillis(50));
                }
            }
        }
    }

    private void relay(Socket from, Socket to) {
        Thread pump = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int read;
                        while ((read = in.read(buffer)) >= 0) {
                            while (stalled()) {
                                sleep(Duration.ofMillis(20));
                            }
                            out.write(buffer, 0, read);
                            out.flush();
                        }
                    } catch (IOException closedOrReset) {
                        // either side went away: the other one is closed below
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "tcp-gate-relay");
        pump.setDaemon(true);
        pump.start();
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        open.forEach(this::closeQuietly);
    }
}
