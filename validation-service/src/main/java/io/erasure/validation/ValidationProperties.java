package io.erasure.validation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param batchSize            candidates checked per round of point reads
 * @param readsPerSecond       read statements per second per store connection (the throttle), as the adapter
 *                             counts them ({@code StoreAdapter.readStatements}: a key set or a point read)
 * @param taskSize             keys per deletion task (capped by the adapter's max batch)
 * @param revalidateAfter      a final set older than this is re-validated before its tasks are published
 * @param maxPlannedStatements statements kept in a dry-run report (the count is always complete)
 */
@ConfigurationProperties("erasure.validation")
public record ValidationProperties(
        Integer batchSize,
        Integer readsPerSecond,
        Integer taskSize,
        Duration revalidateAfter,
        Integer maxPlannedStatements) {

    public ValidationProperties {
        batchSize = batchSize == null ? 200 : batchSize;
        readsPerSecond = readsPerSecond == null ? 2_000 : readsPerSecond;
        taskSize = taskSize == null ? 500 : taskSize;
        revalidateAfter = revalidateAfter == null ? Duration.ofHours(24) : revalidateAfter;
        maxPlannedStatements = maxPlannedStatements == null ? 10_000 : maxPlannedStatements;
        if (batchSize < 1 || taskSize < 1) {
            throw new IllegalArgumentException("erasure.validation.batch-size and task-size must be >= 1");
        }
    }
}
