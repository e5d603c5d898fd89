package io.erasure.audit.candidates;

import io.erasure.audit.join.CandidateSink;
import io.erasure.backup.format.BackupJson;
import io.erasure.backup.format.BackupValues;
import io.erasure.backup.format.PartCompression;
import io.erasure.model.candidate.Candidate;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.zip.Deflater;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a candidate file: gzip JSON Lines, one
 * {@code {"key": {col: value…}, "identifier": "…", "writeTimeMicros": n|null}} per line, key
 * columns in primary-key order (the contract in docs/design.md, read by validation). The same
 * candidates always give the same bytes, so a redone unit rewrites an identical object.
 */
public final class CandidateFileWriter implements CandidateSink, AutoCloseable {

    private final OutputStream compressed;
    private final JsonGenerator json;
    private long count;

    public CandidateFileWriter(OutputStream out) {
        this.compressed = PartCompression.gzip(out, Deflater.BEST_SPEED);
        this.json = BackupJson.MAPPER.createGenerator(compressed);
    }

    @Override
    public void accept(Candidate candidate) {
        json.writeStartObject();
        json.writeName("key");
        json.writeStartObject();
        for (Map.Entry<String, Object> column : candidate.key().entrySet()) {
            json.writeName(column.getKey());
            BackupValues.write(json, column.getValue());
        }
        json.writeEndObject();
        json.writeStringProperty("identifier", candidate.identifier());
        json.writeName("writeTimeMicros");
        if (candidate.writeTimeMicros() == null) {
            json.writeNull();
        } else {
            json.writeNumber(candidate.writeTimeMicros().longValue());
        }
        json.writeEndObject();
        json.writeRaw('\n');
        count++;
    }

    public long count() {
        return count;
    }

    /** Finishes the gzip stream and closes the target (completing an upload). */
    @Override
    public void close() throws IOException {
        json.close();
        compressed.close();
    }
}
