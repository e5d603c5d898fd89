package io.erasure.deletion;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param headroom          share of a store's capacity kept free for live traffic (default 0.3: aim at 70 %
 *                          utilization, and keep the live read p99 within 1.3× its baseline where the store reports it)
 * @param maxRowsPerSecond  static cap of deletes per second per store, for the whole fleet (split by partition share)
 * @param storeMaxRowsPerSecond the static cap of particular stores, by connection ref, where an operator knows better
 *                          than the default (a large PostgreSQL primary, a small shared Cassandra cluster)
 * @param minRowsPerSecond  the throttle never goes below this (so a run always progresses)
 * @param increaseStep      rows/s added per control interval while under the target (additive increase)
 * @param decreaseFactor    the rate is multiplied by this when over the target (multiplicative decrease)
 * @param controlInterval   how often the throttle reads each store's load signal
 * @param latencyTarget     recent delete batches slower than this (their median) count as overload, like a high
 *                          utilization
 * @param logLagThreshold   deletion pauses while the deletion log's ingestion lags by more records than this
 * @param maxRecordBytes    records larger than this (JSON) keep their columns in S3 under retained/
 * @param retryAttempts     attempts of a store call on retriable errors (exponential backoff with jitter)
 * @param killSwitchPoll    how often a paused shard re-checks the kill switches
 * @param forwardLookupMaxKeys the most rows one forward lookup task may resolve (default 100,000); with more the lookup
 *                          is refused and the dataset left to the nightly audit
 * @param forwardLookupRetention how long the keys a lookup resolved are kept, so a redelivered lookup publishes the
 *                          same tasks (default 30 days); after that it looks up anew
 * @param pauseHold         how long a shard waits in place for a kill switch (or the log's lag) before it hands its
 *                          poll back to the consumer, which keeps polling and redelivers it (default 10 s)
 * @param pollBudget        the longest one poll's tasks may run before the rest are handed back (default 10 min; must
 *                          stay well under the consumer's max.poll.interval.ms, or the group evicts the shard and a
 *                          second replica runs the same task concurrently)
 */
@ConfigurationProperties("erasure.deletion")
public record DeletionProperties(
        Double headroom,
        Integer maxRowsPerSecond,
        Integer minRowsPerSecond,
        Integer increaseStep,
        Double decreaseFactor,
        Duration controlInterval,
        Duration latencyTarget,
        Long logLagThreshold,
        Integer maxRecordBytes,
        Integer retryAttempts,
        Duration killSwitchPoll,
        Integer forwardLookupMaxKeys,
        Duration forwardLookupRetention,
        Duration pauseHold,
        Duration pollBudget,
        Map<String, Integer> storeMaxRowsPerSecond) {

    public DeletionProperties {
        headroom = headroom == null ? 0.3 : headroom;
        maxRowsPerSecond = maxRowsPerSecond == null ? 5_000 : maxRowsPerSecond;
        minRowsPerSecond = minRowsPerSecond == null ? 10 : minRowsPerSecond;
        increaseStep = increaseStep == null ? 100 : increaseStep;
        decreaseFactor = decreaseFactor == null ? 0.7 : decreaseFactor;
        controlInterval = controlInterval == null ? Duration.ofSeconds(1) : controlInterval;
        latencyTarget = latencyTarget == null ? Duration.ofMillis(500) : latencyTarget;
        logLagThreshold = logLagThreshold == null ? 100_000L : logLagThreshold;
        maxRecordBytes = maxRecordBytes == null ? 900_000 : maxRecordBytes;
        retryAttempts = retryAttempts == null ? 6 : retryAttempts;
        killSwitchPoll = killSwitchPoll == null ? Duration.ofMillis(500) : killSwitchPoll;
        forwardLookupMaxKeys = forwardLookupMaxKeys == null ? 100_000 : forwardLookupMaxKeys;
        forwardLookupRetention = forwardLookupRetention == null ? Duration.ofDays(30) : forwardLookupRetention;
        pauseHold = pauseHold == null ? Duration.ofSeconds(10) : pauseHold;
        pollBudget = pollBudget == null ? Duration.ofMinutes(10) : pollBudget;
        storeMaxRowsPerSecond = storeMaxRowsPerSecond == null ? Map.of() : Map.copyOf(storeMaxRowsPerSecond);
        int floor = minRowsPerSecond;
        storeMaxRowsPerSecond.forEach((store, cap) -> {
            if (cap == null || cap < floor) {
                throw new IllegalArgumentException("erasure.deletion.store-max-rows-per-second[" + store
                        + "] must be >= " + "min-rows-per-second (" + floor + "), got " + cap);
            }
        });
        if (pauseHold.isNegative() || pollBudget.isNegative() || pollBudget.isZero()) {
            throw new IllegalArgumentException("erasure.deletion.pause-hold must be >= 0 and poll-budget > 0");
        }
        if (headroom < 0 || headroom >= 1) {
            throw new IllegalArgumentException("erasure.deletion.headroom must be in [0, 1), got " + headroom);
        }
        if (decreaseFactor <= 0 || decreaseFactor >= 1) {
            throw new IllegalArgumentException(
                    "erasure.deletion.decrease-factor must be in (0, 1), got " + decreaseFactor);
        }
        if (minRowsPerSecond < 1 || maxRowsPerSecond < minRowsPerSecond) {
            throw new IllegalArgumentException(
                    "erasure.deletion: need 1 <= min-rows-per-second <= max-rows-per-second");
        }
    }
}
