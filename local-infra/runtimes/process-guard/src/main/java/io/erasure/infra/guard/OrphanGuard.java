package io.erasure.infra.guard;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Entry point of every engine child JVM: {@code OrphanGuard <main class> [args...]}.
 *
 * <p>The parent keeps the write end of this process's stdin open for as long as it lives. When the
 * parent ends in any way (normal exit, crash, SIGKILL) the pipe closes, {@code System.in} reads EOF and
 * this JVM exits through {@link System#exit} so the engine's own shutdown hooks drain it; if that takes
 * longer than the grace period the JVM is halted. A poll of the parent's liveness backs up the pipe in
 * case a stdin handle leaked to another process.
 */
public final class OrphanGuard {

    private static final long GRACE_SECONDS = Long.getLong("erasure.guard.graceSeconds", 30);

    private OrphanGuard() {}

    public static void main(String[] args) throws Throwable {
        if (args.length < 1) {
            System.err.println("usage: OrphanGuard <main class> [args...]");
            System.exit(2);
        }
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        daemon("orphan-guard-stdin", () -> {
            drain(System.in);
            exitBecause("parent closed stdin");
        });
        if (parent != null) {
            daemon("orphan-guard-parent", () -> {
                while (parent.isAlive()) {
                    sleepSeconds(1);
                }
                exitBecause("parent process " + parent.pid() + " is gone");
            });
        }
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }

    private static void drain(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // the parent never writes; anything read is ignored
            }
        } catch (IOException closed) {
            // a broken pipe means the same as EOF
        }
    }

    private static void exitBecause(String reason) {
        System.err.println("[orphan-guard] " + reason + ": shutting down");
        daemon("orphan-guard-halt", () -> {
            sleepSeconds(GRACE_SECONDS);
            System.err.println("[orphan-guard] shutdown took longer than " + GRACE_SECONDS + " s: halting");
            Runtime.getRuntime().halt(1);
        });
        System.exit(0);
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void sleepSeconds(long seconds) {
        try {
            TimeUnit.SECONDS.sleep(seconds);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
