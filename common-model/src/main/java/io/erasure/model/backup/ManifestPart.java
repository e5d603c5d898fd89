package io.erasure.model.backup;

import io.erasure.model.check.Require;
import java.util.regex.Pattern;

/** One part file of a backup snapshot with its row count and SHA-256 (checked by readers before use). */
public record ManifestPart(String name, long rowCount, String sha256) {

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    public ManifestPart {
        Require.nonBlank("parts.name", name);
        Require.nonNegative("parts.rowCount", rowCount);
        Require.nonNull("parts.sha256", sha256);
        if (!SHA256.matcher(sha256).matches()) {
            throw new IllegalArgumentException(
                    "parts.sha256 of '" + name + "' must be 64 lower-case hex characters, got " + Require.echo(sha256));
        }
    }
}
