package io.erasure.backup.format;

import io.erasure.model.backup.BackupManifest;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/** The JSON mapper of backup files, and manifest (de)serialization with failures that name the file. */
public final class BackupJson {

    /** Writes root values back to back (no separator): row writers add the newline themselves. */
    public static final JsonMapper MAPPER = JsonMapper.builder(
                    JsonFactory.builder().rootValueSeparator("").build())
            .build();

    private BackupJson() {}

    /**
     * Parses and validates a manifest read from {@code key}.
     *
     * @throws BackupIntegrityException if it is not a valid manifest, naming the key and the broken field
     */
    public static BackupManifest readManifest(byte[] json, String key) {
        try {
            return MAPPER.readValue(json, BackupManifest.class);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new BackupIntegrityException(
                    "manifest " + key + " is not a valid backup manifest: " + rootMessage(e), e);
        }
    }

    public static byte[] writeManifest(BackupManifest manifest) {
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest);
    }

    /** The innermost message: record validation errors arrive wrapped by Jackson. */
    public static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root instanceof JacksonException j ? j.getOriginalMessage() : root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }
}
