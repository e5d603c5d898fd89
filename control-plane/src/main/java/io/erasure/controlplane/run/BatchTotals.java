package io.erasure.controlplane.run;

/**
 * What the batches of one dataset of a run reported, summed: the run's own dataset, or one of its copies.
 *
 * @param stillPresent  keys read back as present after their delete (and not rightly kept by a newer write)
 * @param firstReportAt when the first of these batches reported (ISO-8601), null before any did
 * @param lastReportAt  when the last one reported
 */
public record BatchTotals(
        long batches,
        long deleted,
        long skippedNewer,
        long alreadyAbsent,
        long failed,
        long stillPresent,
        ReadBacks readBack,
        String firstReportAt,
        String lastReportAt) {

    public static final BatchTotals NONE = new BatchTotals(0, 0, 0, 0, 0, 0, new ReadBacks(0, 0, 0), null, null);

    /** How many batches read back clean, with rows remaining, or could not be read back. */
    public record ReadBacks(long cleanBatches, long rowsRemainingBatches, long notSupportedBatches) {}
}
