package io.erasure.store.spi;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a service runs its bulk restores ({@link BulkRestoreProvider}), as its operator configured them.
 *
 * @param settingsPrefix where these options are configured, named in every error: {@code <prefix>work-dir},
 *                       {@code <prefix>writer-heap}, {@code <prefix>writer-timeout}, {@code <prefix>writer-classpath}
 *                       and {@code <prefix>loader} (e.g. {@code erasure.recovery.bulk-})
 * @param workDir        where the bulk data is written before it is loaded
 * @param helperTimeout  how long one helper process (a writer, a loader) may run
 * @param helperHeap     a helper JVM's {@code -Xmx}, e.g. {@code 512m}
 * @param helperClasspath the helper JVM's classpath as configured; null for the provider's default
 * @param loader         how the written data reaches the store, in the provider's own words; null for its default
 */
public record BulkRestoreOptions(
        String settingsPrefix,
        Path workDir,
        Duration helperTimeout,
        String helperHeap,
        @Nullable String helperClasspath,
        @Nullable String loader) {

    public BulkRestoreOptions {
        Objects.requireNonNull(settingsPrefix, "settingsPrefix");
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(helperTimeout, "helperTimeout");
        Objects.requireNonNull(helperHeap, "helperHeap");
        if (helperClasspath != null && helperClasspath.isBlank()) {
            helperClasspath = null;
        }
        if (loader != null && loader.isBlank()) {
            loader = null;
        }
    }

    /** The full name of the setting {@code name} of these options, e.g. {@code erasure.recovery.bulk-loader}. */
    public String setting(String name) {
        return settingsPrefix + name;
    }
}
