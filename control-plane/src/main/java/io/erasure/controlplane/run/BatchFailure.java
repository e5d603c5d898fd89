package io.erasure.controlplane.run;

/**
 * A batch that failed for good (a BatchFailed that redelivery cannot fix). {@code copyOf} is set for a copy's batch.
 */
public record BatchFailure(
        String batchId, String taskId, String dataset, String copyOf, String reason, String receivedAt) {}
