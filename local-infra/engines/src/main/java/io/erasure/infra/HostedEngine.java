package io.erasure.infra;

import io.erasure.process.ChildJvm;
import io.erasure.process.JavaRuntimes;
import io.erasure.process.RuntimeClasspath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An engine served from the {@code runtime-host} child JVM (PostgreSQL, Redis, s3proxy). */
abstract class HostedEngine implements Engine {

    private static final String HOST_MAIN = "io.erasure.infra.runtime.EngineHost";
    private static final String READY = "ERASURE-ENGINE-READY";

    private final String name;
    private final int port;
    private final EngineFolder folder;
    private ChildJvm jvm;

    HostedEngine(String name, int port, EngineFolder folder, List<String> extraArgs) {
        this.name = name;
        this.port = port;
        this.folder = folder;
        List<String> args = new ArrayList<>(List.of(name, Integer.toString(port), folder.path().resolve("data").toString()));
        args.addAll(extraArgs);
        this.jvm = ChildJvm.start(name, RuntimeClasspath.of("runtime-host"), JavaRuntimes.current(),
                List.of("-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), HOST_MAIN, args,
                folder.path(), folder.path().resolve("logs/" + name + ".log"));
        try {
            jvm.awaitLog(READY, Duration.ofSeconds(90));
            jvm.awaitPort(port, Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            close();
            throw e;
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
