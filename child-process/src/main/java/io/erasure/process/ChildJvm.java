package io.erasure.process;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An engine running in a child JVM under {@code io.erasure.infra.guard.OrphanGuard}.
 *
 * <p>This object holds the write end of the child's stdin: closing it (or this JVM dying, even by
 * SIGKILL) makes the child shut down, so no engine outlives the process that started it. The child's
 * stdout and stderr go to a log file, never to this JVM's streams (inherited output corrupts Surefire's
 * channel).
 */
public final class ChildJvm implements AutoCloseable {

    private static final String GUARD = "io.erasure.infra.guard.OrphanGuard";

    private final String name;
    private final Process process;
    private final OutputStream lifeline;
    private final Path logFile;
    private final long logStart;

    private ChildJvm(String name, Process process, Path logFile, long logStart) {
        this.name = name;
        this.process = process;
        this.lifeline = process.getOutputStream();
        this.logFile = logFile;
        this.logStart = logStart;
    }

    /**
     * Starts {@code mainClass} in a new JVM.
     *
     * @param runtime the runtime whose classpath the child gets
     * @param jvmArgs options before the main class (heap, system properties, module flags)
     */
    public static ChildJvm start(
            String name,
            RuntimeClasspath runtime,
            Path java,
            List<String> jvmArgs,
            String mainClass,
            List<String> args,
            Path workDir,
            Path logFile) {
        return start(name, runtime.asPath(), java, jvmArgs, mainClass, args, workDir, logFile);
    }

    /**
     * Starts {@code mainClass} in a new JVM on an explicit classpath, which must contain the
     * process-guard jar ({@link #guardJar()}).
     */
    public static ChildJvm start(
            String name,
            String classpath,
            Path java,
            List<String> jvmArgs,
            String mainClass,
            List<String> args,
            Path workDir,
            Path logFile) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classpath);
        command.add(GUARD);
        command.add(mainClass);
        command.addAll(args);
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(logFile.getParent());
            // a restarted engine appends to its log: only what this process writes counts
            long logStart = Files.exists(logFile) ? Files.size(logFile) : 0;
            Process process = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
            return new ChildJvm(name, process, logFile, logStart);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + " with " + java + ": " + e.getMessage(), e);
        }
    }

    /** The jar (or classes folder) of the OrphanGuard, to put on explicit child classpaths. */
    public static Path guardJar() {
        return RuntimeClasspath.of("runtime-host").entries().stream()
                .filter(p -> p.getFileName().toString().startsWith("process-guard"))
                .findFirst()
                .orElseThrow(
                        () -> new IllegalStateException("process-guard is missing from the runtime-host classpath"));
    }

    /** Waits until the child accepts TCP connections on {@code port}; fails fast if it died. */
    public void awaitPort(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " before it listened on port " + port + "; end of " + logFile + ":\n" + logTail());
            }
            if (accepts(port)) {
                return;
            }
            sleep(100);
        }
        throw new IllegalStateException(name + " did not listen on port " + port + " within " + timeout + "; end of "
                + logFile + ":\n" + logTail());
    }

    /** Waits until the log contains {@code marker}; fails fast if the child died. */
    public void awaitLog(String marker, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (readLog().contains(marker)) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue() + " before logging '"
                        + marker + "'; end of " + logFile + ":\n" + logTail());
            }
            sleep(100);
        }
        throw new IllegalStateException(
                name + " did not log '" + marker + "' within " + timeout + "; end of " + logFile + ":\n" + logTail());
    }

    /** Waits for a short-lived child (a tool) to finish; fails with its log unless it exits with 0. */
    public void awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(name + " did not finish within " + timeout + ":\n" + logTail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name, e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(name + " failed with exit code " + process.exitValue() + ":\n" + logTail());
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /** The last lines of the child's log, for error messages. */
    public String logTail() {
        String log = readLog();
        String[] lines = log.split("\n");
        int from = Math.max(0, lines.length - 40);
        return String.join("\n", Arrays.copyOfRange(lines, from, lines.length));
    }

    /** Asks the child to shut down (closes its stdin) and waits; kills it if it does not stop in time. */
    @Override
    public void close() {
        try {
            lifeline.close();
        } catch (IOException ignored) {
            // the child is already gone
        }
        try {
            if (!process.waitFor(40, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the child at once, as a crash would (for restart and fault tests). */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String readLog() {
        try {
            if (!Files.exists(logFile)) {
                return "";
            }
            byte[] all = Files.readAllBytes(logFile);
            int from = (int) Math.min(logStart, all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for an engine", e);
        }
    }
}
