package io.erasure.recovery.reapply;

import io.erasure.deletionlog.client.LogReader;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param logRetention how long the deletion log keeps records (its TTL,
 *                     {@code erasure.recovery.reapply.log-retention}): the default window of a reapplication, and the
 *                     oldest erasure one can ask for
 */
@ConfigurationProperties("erasure.recovery.reapply")
public record ReapplyProperties(@DefaultValue("30d") Duration logRetention) {

    public ReapplyProperties {
        if (logRetention == null
                || logRetention.isNegative()
                || logRetention.isZero()
                || logRetention.compareTo(LogReader.MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("erasure.recovery.reapply.log-retention must be positive and at most "
                    + LogReader.MAX_WINDOW.toDays() + " days (one log read), got "
                    + logRetention);
        }
    }
}
