package io.erasure.backup.export.snapshot;

import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ManifestPart;
import java.util.ArrayList;
import java.util.List;

/**
 * The progress marker of a snapshot being exported, {@code <snapshot>/_progress.json}: the parts
 * finished so far and where the next one starts. Rewritten after each part; removed once the
 * manifest is written. A resumed export keeps the snapshot's name, cut-off and schema.
 *
 * @param exhausted true once the table has no rows after the last part (only the manifest is missing)
 */
public record ExportProgress(
        String snapshot,
        long cutoffMicros,
        BackupSchema schema,
        List<ManifestPart> parts,
        String cursor,
        boolean exhausted) {

    public ExportProgress {
        parts = List.copyOf(parts);
    }

    public static ExportProgress start(String snapshot, long cutoffMicros, BackupSchema schema) {
        return new ExportProgress(snapshot, cutoffMicros, schema, List.of(), null, false);
    }

    public ExportProgress with(ManifestPart part, String nextCursor) {
        List<ManifestPart> all = new ArrayList<>(parts);
        if (part != null) {
            all.add(part);
        }
        return new ExportProgress(snapshot, cutoffMicros, schema, all, nextCursor, nextCursor == null);
    }
}
