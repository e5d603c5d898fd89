package io.erasure.deletion.execution;

/**
 * Called after each step of a batch. Production has none; fault tests throw from it to simulate a
 * crash at that point (the batch is then redelivered and must resume safely).
 */
@FunctionalInterface
public interface StepListener {

    StepListener NONE = (step, batchId) -> {};

    void after(Step step, String batchId);
}
