package io.erasure.deletion.control;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Reads {@code erasure.control} to its end before the deletion shards start consuming tasks, so a replica that
 * (re)starts while a kill switch is on never deletes before it has seen the switch. First {@link ControlState} takes up
 * the newest signals stored before ({@link ControlStore}), so the topic's older ones (a replayed lift) lose to them.
 * The shards' lanes do not start on their own; this starts them once {@link ControlState} is caught up. While Kafka or
 * the store cannot be reached it keeps trying, and deletes nothing.
 */
public class ControlCatchUp implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ControlCatchUp.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private final ControlState control;
    private final ConsumerFactory<?, ?> consumers;
    private final Runnable startShards;
    private volatile boolean running;
    private volatile Thread worker;

    public ControlCatchUp(ControlState control, ConsumerFactory<?, ?> consumers, Runnable startShards) {
        this.control = control;
        this.consumers = consumers;
        this.startShards = startShards;
    }

    @Override
    public void start() {
        running = true;
        Thread thread = new Thread(this::catchUpThenStartShards, "control-catch-up");
        thread.setDaemon(true);
        worker = thread;
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        Thread thread = worker;
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void catchUpThenStartShards() {
        while (running && !control.caughtUp()) {
            try {
                control.load();
                readToEnd();
                control.markCaughtUp();
            } catch (RuntimeException e) { // Kafka, the store, or stopped meanwhile
                log.warn(
                        "control topic not read to its end yet ({}); deletion waits and retries in {}",
                        e.getMessage(),
                        RETRY);
                if (!sleep(RETRY)) {
                    return;
                }
            }
        }
        while (running) {
            try {
                startShards.run();
                return;
            } catch (RuntimeException e) {
                // nothing is deleted until the shards run: say so loudly, and keep trying
                log.error("deletion shards could not start ({}); retrying in {}", e.getMessage(), RETRY, e);
                if (!sleep(RETRY)) {
                    return;
                }
            }
        }
    }

    private void readToEnd() {
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        overrides.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        overrides.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        overrides.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        try (Consumer<?, ?> consumer = consumers.createConsumer(null, "control-catch-up", null, overrides)) {
            List<TopicPartition> partitions = consumer.partitionsFor(control.topic(), Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            if (partitions.isEmpty()) {
                return; // no control topic yet: no switch was ever set
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            while (running && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<?, ?> record : consumer.poll(POLL)) {
                    control.apply((String) record.key(), record.partition(), record.offset(), (String) record.value());
                }
            }
            if (!running) {
                throw new IllegalStateException("stopped while catching up");
            }
        }
    }

    private static boolean sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
