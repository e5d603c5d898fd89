package io.erasure.store.redis.load;

import io.erasure.store.redis.Pipeline;
import io.erasure.store.spi.LoadSignal;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Redis's load for the deletion throttle, from three parts each normalised to 0..1 (the utilization is the largest):
 * <ul>
 *   <li>{@code ops}: {@code instantaneous_ops_per_sec} from {@code INFO stats} over {@code ops-limit}. Redis runs
 *       commands on one thread, so its command rate is the resource live traffic and deletes share;</li>
 *   <li>{@code latency}: the measured round trip of a {@code PING} over {@code latency-limit-ms}: a busy main thread
 *       (a slow command, a large value being freed, a fork for persistence) shows here first;</li>
 *   <li>{@code connections}: {@code connected_clients} over {@code maxclients} (from {@code INFO clients} where the
 *       server reports it, else Redis's default of {@value #DEFAULT_MAX_CLIENTS}).</li>
 * </ul>
 * Memory is left out: deletes free memory, and restores are rare and small.
 */
public final class RedisLoad {

    static final long DEFAULT_MAX_CLIENTS = 10_000;

    private final Pipeline pipeline;
    private final int opsLimit;
    private final int latencyLimitMs;
    private final Clock clock;
    private final LongSupplier nanoTime;

    public RedisLoad(Pipeline pipeline, int opsLimit, int latencyLimitMs, Clock clock, LongSupplier nanoTime) {
        this.pipeline = pipeline;
        this.opsLimit = opsLimit;
        this.latencyLimitMs = latencyLimitMs;
        this.clock = clock;
        this.nanoTime = nanoTime;
    }

    public LoadSignal measure() {
        long start = nanoTime.getAsLong();
        pipeline.value("measure load (PING)", pipeline.send().ping());
        double latencyMs = (nanoTime.getAsLong() - start) / 1_000_000.0;
        Map<String, String> info =
                parseInfo(pipeline.value("measure load (INFO)", pipeline.send().info("clients")) + "\n"
                        + pipeline.value("measure load (INFO)", pipeline.send().info("stats")));
        return signal(info, latencyMs);
    }

    /** The signal from {@code INFO} fields and a measured round trip. */
    LoadSignal signal(Map<String, String> info, double latencyMs) {
        return LoadSignal.of(
                Map.of(
                        "ops", LoadSignal.ratio(number(info, "instantaneous_ops_per_sec", 0), opsLimit),
                        "latency", LoadSignal.ratio(latencyMs, latencyLimitMs),
                        "connections",
                                LoadSignal.ratio(
                                        number(info, "connected_clients", 0),
                                        number(info, "maxclients", DEFAULT_MAX_CLIENTS))),
                clock.instant());
    }

    /**
     * {@code field:value} lines of an {@code INFO} reply; section headers ({@code # Clients}) and blanks are skipped.
     */
    static Map<String, String> parseInfo(String info) {
        Map<String, String> fields = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (!line.startsWith("#") && colon > 0) {
                fields.put(
                        line.substring(0, colon).trim(),
                        line.substring(colon + 1).trim());
            }
        }
        return fields;
    }

    private static double number(Map<String, String> info, String field, double fallback) {
        try {
            return info.containsKey(field) ? Double.parseDouble(info.get(field)) : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
