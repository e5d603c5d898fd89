package io.erasure.backup.export.snapshot;

/**
 * A finished export.
 *
 * @param partsWritten parts written by this call (fewer than the manifest's when it resumed a crashed export)
 * @param resumed      true if this call continued a snapshot a previous export had started
 */
public record ExportResult(
        String manifestKey, String snapshot, long rows, int parts, int partsWritten, boolean resumed) {}
