package io.erasure.recovery.reapply;

import io.erasure.model.check.Require;
import java.time.Instant;

/**
 * The erasures a reapplication covers: those deleted in [{@code from}, {@code to}); with the restored
 * {@code snapshot} and its {@code snapshotCutoffMicros} when the window was derived from one. {@code warning}
 * says what the window cannot cover (erasures older than the log's retention).
 */
record ErasureWindow(Instant from, Instant to, String snapshot, Long snapshotCutoffMicros, String warning) {

    ErasureWindow {
        Require.nonNull("from", from);
        Require.nonNull("to", to);
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to, got from=" + from + ", to=" + to);
        }
    }
}
