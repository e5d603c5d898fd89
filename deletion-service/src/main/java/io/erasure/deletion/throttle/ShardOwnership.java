package io.erasure.deletion.throttle;

import io.erasure.model.contract.Topics;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

/**
 * The share of the task topic's partitions this replica owns, so the static rate cap is split between
 * replicas in proportion to the work they hold.
 */
public class ShardOwnership implements ConsumerRebalanceListener {

    private final AtomicInteger owned = new AtomicInteger();
    private volatile int total = 1;

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        owned.addAndGet((int) partitions.stream()
                .filter(p -> p.topic().equals(Topics.DELETION_TASKS))
                .count());
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        owned.addAndGet(-(int) partitions.stream()
                .filter(p -> p.topic().equals(Topics.DELETION_TASKS))
                .count());
    }

    public void totalPartitions(int partitions) {
        this.total = Math.max(1, partitions);
    }

    /** Owned / total task partitions, in (0, 1]; 1 until the first assignment is known. */
    public double share() {
        int mine = owned.get();
        return mine <= 0 ? 1.0 : Math.min(1.0, (double) mine / total);
    }
}
