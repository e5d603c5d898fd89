package io.erasure.deletion.shard;

import io.erasure.deletion.throttle.ShardOwnership;
import io.erasure.model.contract.Topics;
import io.erasure.model.task.DeletionTask;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * One execution lane per store (connection): a listener container of its own on {@code erasure.deletion.tasks},
 * in a consumer group of its own ({@code <group>.<store>}), that executes only the tasks of its store and passes
 * over the rest, told by their headers without reading them ({@link Lane}). A store held at its throttle floor,
 * paused or failing holds back only its own lane: every lane has its own offsets, its own poll loop and its own
 * back-off. One more lane, in the service's own group, takes the tasks of stores this replica has no connection for
 * (they fail with how to configure one).
 *
 * <p>Each store has a second lane for the tasks of runs spread over a window ({@link DeletionTask#paced()}, group
 * {@code <group>.<store>:paced}): their batches wait for their pace in the listener thread, and in a lane of their own
 * those waits hold back neither forward deletion nor the store's runs without a window. Paced runs of one store share
 * their lane's shards.
 *
 * <p>A lane group that has never committed starts where the service's group is, so turning lanes on neither
 * skips nor replays tasks. Every replica runs the same lanes, so each lane group spreads the partitions like the
 * service's group does; the throttle's share of the cap is taken from the service's group.
 */
public class StoreLanes implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(StoreLanes.class);

    /** The store lanes leave the throttle's share alone: it is counted once, in the service's own group. */
    private static final ConsumerRebalanceListener NO_SHARE = new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
    };

    private final ConcurrentKafkaListenerContainerFactory<?, ?> factory;
    private final TaskListener listener;
    private final Set<String> stores;
    private final String group;
    private final int concurrency;
    private final ShardOwnership ownership;
    private final Admin admin;
    private final List<ConcurrentMessageListenerContainer<?, ?>> containers = new ArrayList<>();

    public StoreLanes(
            ConcurrentKafkaListenerContainerFactory<?, ?> factory,
            TaskListener listener,
            Set<String> stores,
            String group,
            int concurrency,
            ShardOwnership ownership,
            Admin admin) {
        this.factory = factory;
        this.listener = listener;
        this.stores = new TreeSet<>(stores);
        this.group = group;
        this.concurrency = concurrency;
        this.ownership = ownership;
        this.admin = admin;
    }

    /** The consumer group of a store's lane. */
    public static String laneGroup(String group, String store) {
        return group + "." + store;
    }

    /** The consumer group of a store's lane for paced runs (':' is never part of a store's name). */
    public static String pacedLaneGroup(String group, String store) {
        return laneGroup(group, store) + ":paced";
    }

    /**
     * Starts every lane; called once the kill switches are read. All or none: if one lane cannot start, those started
     * are stopped again and the call throws, so it can be retried.
     */
    public synchronized void start() {
        if (!containers.isEmpty()) {
            return;
        }
        List<ConcurrentMessageListenerContainer<?, ?>> lanes = new ArrayList<>();
        try {
            for (String store : stores) {
                startAtTheServiceGroupsOffsets(laneGroup(group, store));
                lanes.add(lane(Lane.of(store, false, stores), laneGroup(group, store), NO_SHARE));
                startAtTheServiceGroupsOffsets(pacedLaneGroup(group, store));
                lanes.add(lane(Lane.of(store, true, stores), pacedLaneGroup(group, store), NO_SHARE));
            }
            lanes.add(lane(Lane.fallback(stores), group, ownership));
            lanes.forEach(ConcurrentMessageListenerContainer::start);
        } catch (RuntimeException e) {
            lanes.stream()
                    .filter(ConcurrentMessageListenerContainer::isRunning)
                    .forEach(ConcurrentMessageListenerContainer::stop);
            throw e;
        }
        containers.addAll(lanes);
        log.info(
                "deletion lanes started: {} (each with one for paced runs, and one for unconfigured stores),"
                        + " {} shard(s) each",
                stores,
                concurrency);
    }

    public synchronized boolean running() {
        return !containers.isEmpty() && containers.stream().allMatch(ConcurrentMessageListenerContainer::isRunning);
    }

    @Override
    public synchronized void destroy() {
        containers.forEach(ConcurrentMessageListenerContainer::stop);
    }

    private ConcurrentMessageListenerContainer<?, ?> lane(
            Lane lane, String laneGroup, ConsumerRebalanceListener rebalance) {
        ConcurrentMessageListenerContainer<?, ?> container = factory.createContainer(Topics.DELETION_TASKS);
        container.getContainerProperties().setGroupId(laneGroup);
        container.getContainerProperties().setConsumerRebalanceListener(rebalance);
        container.getContainerProperties().setMessageListener((BatchMessageListener<String, String>)
                (List<ConsumerRecord<String, String>> records) -> listener.onTasks(records, lane));
        container.setConcurrency(concurrency);
        container.setBeanName(lane.id());
        container.getContainerProperties().setClientId(lane.id());
        return container;
    }

    /** A lane group without offsets of its own starts where the service's group is (nothing skipped or replayed). */
    private void startAtTheServiceGroupsOffsets(String laneGroup) {
        try {
            Map<TopicPartition, OffsetAndMetadata> own = admin.listConsumerGroupOffsets(laneGroup)
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS);
            if (own.keySet().stream().anyMatch(p -> p.topic().equals(Topics.DELETION_TASKS))) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> service = new HashMap<>();
            admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS)
                    .forEach((partition, offset) -> {
                        if (partition.topic().equals(Topics.DELETION_TASKS) && offset != null) {
                            service.put(partition, offset);
                        }
                    });
            if (!service.isEmpty()) {
                admin.alterConsumerGroupOffsets(laneGroup, service).all().get(10, TimeUnit.SECONDS);
                log.info("lane group {} starts at the offsets of {}: {}", laneGroup, group, service);
            }
        } catch (ExecutionException | TimeoutException e) {
            // with no offsets the lane reads from the earliest task: redelivered batches are recognised, never
            // re-applied
            log.warn("could not start lane group {} at the offsets of {}: {}", laneGroup, group, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
