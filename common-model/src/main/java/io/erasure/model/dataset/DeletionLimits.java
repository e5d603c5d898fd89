package io.erasure.model.dataset;

import io.erasure.model.check.Allowed;
import org.jspecify.annotations.Nullable;

/**
 * How much one run may delete without a human approving it: a fraction of the dataset's rows, an
 * absolute number of rows, or both (whichever is stricter wins). At least one must be set.
 */
public record DeletionLimits(
        @Allowed("a number between 0 and 1") @Nullable Double maxFraction,

        @Allowed("an integer between 0 and " + Long.MAX_VALUE) @Nullable
        Long maxRows) {

    public DeletionLimits {
        if (maxFraction == null && maxRows == null) {
            throw new IllegalArgumentException("limits must set maxFraction (0..1 of the dataset's rows) and/or maxRows"
                    + " (absolute); a dataset without a limit cannot be registered");
        }
        if (maxFraction != null && !(maxFraction >= 0.0 && maxFraction <= 1.0)) {
            throw new IllegalArgumentException("limits.maxFraction must be between 0 and 1, got " + maxFraction);
        }
        if (maxRows != null && maxRows < 0) {
            throw new IllegalArgumentException("limits.maxRows must be >= 0, got " + maxRows);
        }
    }

    public static DeletionLimits fraction(double maxFraction) {
        return new DeletionLimits(maxFraction, null);
    }

    public static DeletionLimits rows(long maxRows) {
        return new DeletionLimits(null, maxRows);
    }

    /**
     * True if deleting {@code rowsToDelete} of {@code totalRows} needs approval. With a fraction
     * limit and an unknown or zero total, any deletion exceeds it: the safe answer.
     */
    public boolean exceededBy(long rowsToDelete, long totalRows) {
        if (rowsToDelete <= 0) {
            return false;
        }
        if (maxRows != null && rowsToDelete > maxRows) {
            return true;
        }
        if (maxFraction != null) {
            return totalRows <= 0 || (double) rowsToDelete / totalRows > maxFraction;
        }
        return false;
    }
}
