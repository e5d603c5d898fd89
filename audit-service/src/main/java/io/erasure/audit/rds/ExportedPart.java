package io.erasure.audit.rds;

import io.erasure.model.check.Require;

/**
 * One Parquet file of an exported table as it was listed when the audit was planned. A unit reads it only if its
 * ETag is still this one ({@code If-Match}), and checks its size, so an export written again under the same name
 * is not mistaken for the one planned.
 */
public record ExportedPart(String key, long size, String eTag) {

    public ExportedPart {
        Require.nonBlank("key", key);
        Require.positive("size", size);
        Require.nonBlank("eTag", eTag);
    }
}
