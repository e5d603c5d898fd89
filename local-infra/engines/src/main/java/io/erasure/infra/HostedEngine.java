package io.erasure.infra;

import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.process.RuntimeClasspath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An engine served from the {@code runtime-host} child JVM (PostgreSQL, Redis, s3proxy). {@link #stop()} and
 * {@link #start()} take it away and bring it back on the same port and data, for outage and restart tests.
 */
abstract class HostedEngine implements Engine {

    private static final String HOST_MAIN = "io.erasure.infra.runtime.EngineHost";
    private static final String READY = "ERASURE-ENGINE-READY";

    private final String name;
    private final int port;
    private final EngineFolder folder;
    private final List<String> args;
    private ChildJvm jvm;

    HostedEngine(String name, int port, EngineFolder folder, List<String> extraArgs) {
        this.name = name;
        this.port = port;
        this.folder = folder;
        List<String> all = new ArrayList<>(List.of(
                name, Integer.toString(port), folder.path().resolve("data").toString()));
        all.addAll(extraArgs);
        this.args = List.copyOf(all);
        try {
            start();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Starts the engine (again) on its port and data and waits until it serves; a running engine is left as it is. */
    public synchronized void start() {
        if (jvm != null && jvm.isAlive()) {
            return;
        }
        jvm = ChildJvm.start(
                name,
                RuntimeClasspath.of("runtime-host"),
                JavaRuntimes.current(),
                List.of("-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                HOST_MAIN,
                args,
                folder.path(),
                folder.path().resolve("logs/" + name + ".log"));
        jvm.awaitLog(READY, Duration.ofSeconds(90));
        jvm.awaitPort(port, Duration.ofSeconds(10));
    }

    /**
     * Stops the engine cleanly (PostgreSQL's fast shutdown closes every client connection) and keeps its data, so
     * {@link #start()} brings it back as it was.
     */
    public synchronized void stop() {
        if (jvm != null) {
            jvm.close();
        }
    }

    @Override
    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public String host() {
        return "127.0.0.1";
    }

    /** The host JVM's pid (its engine process, if any, is its child). */
    public long pid() {
        return jvm.pid();
    }

    @Override
    public synchronized void close() {
        if (jvm != null) {
            jvm.close();
            jvm = null;
            folder.release();
        }
    }
}
