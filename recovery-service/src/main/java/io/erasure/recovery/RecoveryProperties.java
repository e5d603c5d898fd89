package io.erasure.recovery;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param rowsPerSecond restored rows per second per store connection ({@code erasure.recovery.rows-per-second})
 * @param batchSize     records per adapter call (at most {@code rowsPerSecond})
 * @param workers       recoveries run at once by this replica
 */
@ConfigurationProperties("erasure.recovery")
public record RecoveryProperties(@DefaultValue("500") int rowsPerSecond, @DefaultValue("100") int batchSize,
                                 @DefaultValue("2") int workers) {

    public RecoveryProperties {
        if (batchSize < 1 || workers < 1) {
            throw new IllegalArgumentException("erasure.recovery.batch-size and .workers must be >= 1, got " + batchSize + ", "
                    + workers);
        }
    }
}
