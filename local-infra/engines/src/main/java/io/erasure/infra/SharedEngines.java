package io.erasure.infra;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The engines of this JVM, each started once on first use and stopped when the JVM exits. */
final class SharedEngines {

    static final SharedEngines INSTANCE = new SharedEngines();

    private final Map<Class<?>, Engine> engines = new LinkedHashMap<>();

    private SharedEngines() {
        Runtime.getRuntime().addShutdownHook(new Thread(this::closeAll, "local-engines-stop"));
    }

    synchronized <E extends Engine> E get(Class<E> type, Supplier<E> starter) {
        Engine engine = engines.get(type);
        if (engine == null) {
            engine = starter.get();
            engines.put(type, engine);
        }
        return type.cast(engine);
    }

    private void closeAll() {
        List<Engine> running;
        synchronized (this) {
            running = new ArrayList<>(engines.values());
            engines.clear();
        }
        Collections.reverse(running);
        // stop in parallel: each engine drains on its own (Cassandra takes seconds)
        List<Thread> stoppers = running.stream()
                .map(engine -> {
                    Thread stopper = new Thread(engine::close, "stop-" + engine.name());
                    stopper.start();
                    return stopper;
                })
                .toList();
        for (Thread stopper : stoppers) {
            try {
                stopper.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
