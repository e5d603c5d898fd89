package io.erasure.audit.units;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.context.SmartLifecycle;

/** Runs this replica's unit workers, one thread and one group member each, for the application's lifetime. */
public final class UnitWorkers implements SmartLifecycle {

    private final Supplier<UnitWorker> workers;
    private final int count;
    private final List<UnitWorker> running = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    public UnitWorkers(Supplier<UnitWorker> workers, int count) {
        this.workers = workers;
        this.count = count;
    }

    @Override
    public synchronized void start() {
        for (int i = 0; i < count; i++) {
            UnitWorker worker = workers.get();
            Thread thread = new Thread(worker, "audit-unit-worker-" + i);
            running.add(worker);
            threads.add(thread);
            thread.start();
        }
    }

    @Override
    public synchronized void stop() {
        running.forEach(UnitWorker::stop);
        for (Thread thread : threads) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        running.clear();
        threads.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return !threads.isEmpty();
    }
}
