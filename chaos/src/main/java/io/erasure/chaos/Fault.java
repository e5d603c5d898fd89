package io.erasure.chaos;

import io.erasure.infra.CassandraEngine;
import io.erasure.infra.KafkaEngine;
import io.erasure.infra.PostgresEngine;
import io.erasure.infra.S3Engine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real fault, injected into the running platform and healed the way an operator's supervisor would: a service killed
 * with SIGKILL and started again as the launcher starts it, the broker or the Cassandra node killed and restarted on
 * its data, PostgreSQL restarted (every connection of every service drops), S3 away for a while, the target PostgreSQL
 * store stalled behind the {@link TcpGate}.
 */
enum Fault {
    KILL_CONTROL_PLANE("control-plane"),
    KILL_AUDIT("audit-service"),
    KILL_VALIDATION("validation-service"),
    KILL_DELETION("deletion-service"),
    KILL_DELETION_LOG("deletion-log-service"),
    /** Hits the restore by run, not the run: the recovery is asked again once the service is back. */
    KILL_RECOVERY("recovery-service"),
    KAFKA_CRASH(null),
    CASSANDRA_CRASH(null),
    POSTGRES_RESTART(null),
    S3_OUTAGE(null),
    STALLED_STORE(null);

    static final Duration S3_AWAY = Duration.ofSeconds(15);
    static final Duration STALL = Duration.ofSeconds(20);

    private final String service;

    Fault(String service) {
        this.service = service;
    }

    /** One fault, or (one trial in five) two different ones at once; never the recovery kill paired with another. */
    static List<Fault> pick(Random random) {
        Fault[] all = values();
        Fault first = all[random.nextInt(all.length)];
        List<Fault> faults = new ArrayList<>(List.of(first));
        if (first != KILL_RECOVERY && random.nextInt(5) == 0) {
            Fault second;
            do {
                second = all[random.nextInt(all.length)];
            } while (second == first || second == KILL_RECOVERY);
            faults.add(second);
        }
        return List.copyOf(faults);
    }

    /** Injects the faults together and waits until each is healed (restarted, back, unstalled). */
    static void injectAll(List<Fault> faults, ChaosPlatform platform) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (Fault fault : faults) {
            Thread thread = new Thread(
                    () -> {
                        try {
                            fault.inject(platform);
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    },
                    "chaos-" + fault.name().toLowerCase(Locale.ROOT));
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            IllegalStateException failed =
                    new IllegalStateException("healing " + faults + " failed: " + failures.get(0));
            failures.forEach(failed::addSuppressed);
            throw failed;
        }
    }

    void inject(ChaosPlatform platform) throws InterruptedException {
        if (service != null) {
            platform.running.kill(service);
            platform.running.restart(service);
            return;
        }
        switch (this) {
            case KAFKA_CRASH -> platform.running.engine(KafkaEngine.class).crashAndRestart();
            case CASSANDRA_CRASH ->
                platform.running.engine(CassandraEngine.class).crashAndRestart();
            case POSTGRES_RESTART -> {
                PostgresEngine postgres = platform.running.engine(PostgresEngine.class);
                postgres.stop();
                postgres.start();
            }
            case S3_OUTAGE -> {
                S3Engine s3 = platform.running.engine(S3Engine.class);
                s3.stop();
                Thread.sleep(S3_AWAY.toMillis());
                s3.start();
            }
            case STALLED_STORE -> {
                platform.gate.stall(STALL);
                Thread.sleep(STALL.toMillis());
            }
            default -> throw new IllegalStateException("no injection for " + this);
        }
    }

    boolean hitsRestore() {
        return this == KILL_RECOVERY;
    }
}
